import { useNavigate } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/Button';
import { Dialog } from '../../../components/Dialog';
import { VERIFICATION_PATH } from './VerifyPrompt';

/** The same prompt when the server refused an order for want of verification (the machine's `verifying`). */
/** Loaded only when shown (LeverTicket), so the page's first load does not carry it. */
export default function VerifyDialog({ open, onClose }: { open: boolean; onClose: () => void }): ReactElement | null {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Dialog
      open={open}
      title={t('lever.verify.title')}
      onClose={onClose}
      actions={
        <>
          <Button variant="ghost" onClick={onClose}>
            {t('lever.verify.later')}
          </Button>
          <Button onClick={() => void navigate({ to: VERIFICATION_PATH })} data-testid="verify-go">
            {t('lever.verify.go')}
          </Button>
        </>
      }
    >
      <p>{t('lever.verify.text')}</p>
    </Dialog>
  );
}
