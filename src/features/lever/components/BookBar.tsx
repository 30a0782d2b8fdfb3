import { Link } from '@tanstack/react-router';
import { lazy, type ReactElement, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverAccount } from '../../../../protocol/lever';
import { Button } from '../../../components/Button';
import { Icon } from '../../../components/Icon';

/** The reset confirmation loads when asked for: the band itself is what every visit shows. */
const ResetPractice = lazy(() => import('./ResetPractice'));

/**
 * Which book the page trades on, said plainly: on the simulator a "practice" band with the reset of the practice
 * funds and "exit simulation" back to the real account; on the real account a link to practise.
 */
export function BookBar({ book }: { book: LeverAccount }): ReactElement {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  if (book === 'real') {
    return (
      <div className="lever-book is-real" data-testid="book" data-book="real">
        <span className="lever-book-name">{t('lever.book.real')}</span>
        <Link to="/pages/lever/simulator" className="lever-link" data-testid="to-simulator">
          {t('lever.book.toSimulator')}
        </Link>
      </div>
    );
  }
  return (
    <div className="lever-book is-practice" data-testid="book" data-book="simulator">
      <p className="lever-book-name">
        <Icon name="info" size={16} />
        <strong>{t('lever.book.practice')}</strong> {t('lever.book.practiceNote')}
      </p>
      <div className="lever-actions">
        <Button variant="secondary" className="btn-small" onClick={() => setConfirming(true)} data-testid="reset">
          {t('lever.book.reset')}
        </Button>
        <Link to="/pages/lever/index" className="lever-link" data-testid="exit-simulation">
          {t('lever.book.exit')}
        </Link>
      </div>
      {confirming ? (
        <Suspense fallback={null}>
          <ResetPractice onClose={() => setConfirming(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
