import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/Icon';
import { VerifyDialog as Dialog, VerifyNote } from '../../../components/VerifyPrompt';

const LOGIN_PATH = '/pages/user/login/login';
const VOTE_PATH = '/pages/publication/vote';

/** A guest reads the results; voting needs a login (and a verified identity), with the way back here. */
export function GuestPrompt(): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="note note-info vote-prompt" data-testid="vote-guest">
      <Icon name="login" size={18} />
      <p>
        {t('vote.guest.text')}{' '}
        <Link to={LOGIN_PATH} search={{ backpage: VOTE_PATH }} className="vote-link">
          {t('vote.guest.login')}
        </Link>
      </p>
    </div>
  );
}

/** SPEC 8 for a logged-in user without a verified identity: "account not authenticated, go to authentication?". */
export function VerifyBanner(): ReactElement {
  const { t } = useTranslation();
  return (
    <VerifyNote
      texts={{ text: t('vote.verify.text'), go: t('vote.verify.go') }}
      className="vote-prompt"
      linkClassName="vote-link"
      testId="vote-verify"
    />
  );
}

/** The same prompt when the server refused a vote for want of verification. */
export function VerifyDialog({ open, onClose }: { open: boolean; onClose: () => void }): ReactElement | null {
  const { t } = useTranslation();
  const texts = {
    title: t('vote.verify.title'),
    text: t('vote.verify.text'),
    go: t('vote.verify.go'),
    later: t('vote.verify.later'),
  };
  return <Dialog open={open} onClose={onClose} texts={texts} goTestId="vote-verify-go" />;
}
