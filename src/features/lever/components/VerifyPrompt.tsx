import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/Icon';
import { useVerificationInfo } from '../../identity/hooks/useVerification';

export const VERIFICATION_PATH = '/pages/verification/index';

/**
 * SPEC 8 on the real account before opening: "account not authenticated, go to authentication?" with the link,
 * while the basic verification is not done. Loaded by the real account's page only (the simulator needs none).
 */
export default function VerifyBanner(): ReactElement | null {
  const { t } = useTranslation();
  const verification = useVerificationInfo();
  if (verification.info === null || verification.info.basic.state === 'verified') return null;
  return (
    <div className="note note-warn lever-verify" role="status" data-testid="verify-banner">
      <Icon name="shield" size={18} />
      <p>
        {t('lever.verify.text')}{' '}
        <Link to={VERIFICATION_PATH} className="lever-link">
          {t('lever.verify.go')}
        </Link>
      </p>
    </div>
  );
}
