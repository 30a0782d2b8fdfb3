import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { VerifyDialog as Dialog } from '../../../components/VerifyPrompt';

/**
 * The same prompt when the server refused an order for want of verification (the machine's `verifying`). Loaded
 * only when shown (LeverTicket), so the page's first load does not carry it.
 */
export default function VerifyDialog({ open, onClose }: { open: boolean; onClose: () => void }): ReactElement | null {
  const { t } = useTranslation();
  const texts = {
    title: t('lever.verify.title'),
    text: t('lever.verify.text'),
    go: t('lever.verify.go'),
    later: t('lever.verify.later'),
  };
  return <Dialog open={open} onClose={onClose} texts={texts} goTestId="verify-go" />;
}
