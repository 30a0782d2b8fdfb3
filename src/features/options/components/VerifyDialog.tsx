import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { VerifyDialog as Dialog } from '../../../components/VerifyPrompt';

/**
 * The prompt when the server refused a purchase for want of verification (the machine's `verifying`). Loaded only
 * when shown (ContractTicket), so the page's first load does not carry it.
 */
export default function VerifyDialog({ open, onClose }: { open: boolean; onClose: () => void }): ReactElement | null {
  const { t } = useTranslation();
  const texts = {
    title: t('options.verify.title'),
    text: t('options.verify.text'),
    go: t('options.verify.go'),
    later: t('options.verify.later'),
  };
  return <Dialog open={open} onClose={onClose} texts={texts} goTestId="verify-go" />;
}
