import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { VerifyNote } from '../../../components/VerifyPrompt';
import { useVerificationInfo } from '../../identity/public';

/**
 * SPEC 8 on the real account before buying: "account not authenticated, go to authentication?" with the link, while
 * the basic verification is not done. Loaded by the real account's page only, beside the first paint (the simulator
 * needs none), as lever's is.
 */
export default function VerifyBanner(): ReactElement | null {
  const { t } = useTranslation();
  const verification = useVerificationInfo();
  if (verification.info === null || verification.info.basic.state === 'verified') return null;
  return (
    <VerifyNote
      texts={{ text: t('options.verify.text'), go: t('options.verify.go') }}
      className="note-warn option-verify"
      linkClassName="option-link"
      testId="verify-banner"
    />
  );
}
