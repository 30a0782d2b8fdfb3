import { Link, useNavigate } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/Button';
import { Dialog } from '../../../components/Dialog';
import { Icon } from '../../../components/Icon';

const VERIFICATION_PATH = '/pages/verification/index';

/** SPEC 8 on the real account before buying: "account not authenticated, go to authentication?" with the link. */
export function VerifyBanner(): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="note note-warn option-verify" role="status" data-testid="verify-banner">
      <Icon name="shield" size={18} />
      <p>
        {t('options.verify.text')}{' '}
        <Link to={VERIFICATION_PATH} className="option-link">
          {t('options.verify.go')}
        </Link>
      </p>
    </div>
  );
}

/** The same prompt when the server refused a purchase for want of verification (the machine's `verifying`). */
export function VerifyDialog({ open, onClose }: { open: boolean; onClose: () => void }): ReactElement | null {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Dialog
      open={open}
      title={t('options.verify.title')}
      onClose={onClose}
      actions={
        <>
          <Button variant="ghost" onClick={onClose}>
            {t('options.verify.later')}
          </Button>
          <Button onClick={() => void navigate({ to: VERIFICATION_PATH })} data-testid="verify-go">
            {t('options.verify.go')}
          </Button>
        </>
      }
    >
      <p>{t('options.verify.text')}</p>
    </Dialog>
  );
}
