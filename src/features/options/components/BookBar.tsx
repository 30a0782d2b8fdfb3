import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { resetPracticeFunds } from '../../../../core/api/options';
import type { OptionAccount } from '../../../../protocol/options';
import { Button } from '../../../components/Button';
import { Dialog } from '../../../components/Dialog';
import { Icon } from '../../../components/Icon';
import { need } from '../../../data/query';
import { optionKeys } from '../keys';

/**
 * Which book the page trades on, said plainly: on the simulator a "practice" band with the reset of the practice
 * funds and "exit simulation" back to the real account (SPEC 4); on the real account a link to practise.
 */
export function BookBar({ book }: { book: OptionAccount }): ReactElement {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const reset = useMutation({
    mutationFn: () => need(resetPracticeFunds()),
    onSuccess: (balance) => {
      client.setQueryData(optionKeys.practice, balance);
      setConfirming(false);
    },
  });
  if (book === 'real') {
    return (
      <div className="option-book is-real" data-testid="book" data-book="real">
        <span className="option-book-name">{t('options.book.real')}</span>
        <Link to="/pages/option/simulator" className="option-link" data-testid="to-simulator">
          {t('options.book.toSimulator')}
        </Link>
      </div>
    );
  }
  return (
    <div className="option-book is-practice" data-testid="book" data-book="simulator">
      <p className="option-book-name">
        <Icon name="info" size={16} />
        <strong>{t('options.book.practice')}</strong> {t('options.book.practiceNote')}
      </p>
      <div className="option-actions">
        <Button variant="secondary" className="btn-small" onClick={() => setConfirming(true)} data-testid="reset">
          {t('options.book.reset')}
        </Button>
        <Link to="/pages/option/detail" className="option-link" data-testid="exit-simulation">
          {t('options.book.exit')}
        </Link>
      </div>
      <Dialog
        open={confirming}
        title={t('options.book.resetTitle')}
        onClose={() => setConfirming(false)}
        actions={
          <>
            <Button variant="ghost" onClick={() => setConfirming(false)}>
              {t('options.book.cancel')}
            </Button>
            <Button busy={reset.isPending} onClick={() => reset.mutate()} data-testid="reset-confirm">
              {t('options.book.resetConfirm')}
            </Button>
          </>
        }
      >
        <p>{t('options.book.resetText')}</p>
      </Dialog>
    </div>
  );
}
