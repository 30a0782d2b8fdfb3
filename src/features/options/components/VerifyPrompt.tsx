import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { VerifyDialog as Dialog, VerifyNote } from '../../../components/VerifyPrompt';

/** SPEC 8 on the real account before buying: "account not authenticated, go to authentication?" with the link. */
export function VerifyBanner(): ReactElement {
  const { t } = useTranslation();
  return (
    <VerifyNote
      texts={{ text: t('options.verify.text'), go: t('options.verify.go') }}
      className="note-warn option-verify"
      linkClassName="option-link"
      testId="verify-banner"
    />
  );
}

/** The same prompt when the server refused a purchase for want of verification (the machine's `verifying`). */
export function VerifyDialog({ open, onClose }: { open: boolean; onClose: () => void }): ReactElement | null {
  const { t } = useTranslation();
  const texts = {
    title: t('options.verify.title'),
    text: t('options.verify.text'),
    go: t('options.verify.go'),
    later: t('options.verify.later'),
  };
  return <Dialog open={open} onClose={onClose} texts={texts} goTestId="verify-go" />;
}
