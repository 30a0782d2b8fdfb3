import { Link, useNavigate } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { Button } from './Button';
import { Dialog } from './Dialog';
import { Icon } from './Icon';

export const VERIFICATION_PATH = '/pages/verification/index';

/** A feature's words for SPEC 8's "account not authenticated, go to authentication?" (each feature says why). */
export interface VerifyTexts {
  text: string;
  go: string;
}

/** The note above a form that needs a verified identity, with the link to verification. */
export function VerifyNote({
  texts,
  className,
  linkClassName,
  testId,
}: {
  texts: VerifyTexts;
  className: string;
  linkClassName: string;
  testId: string;
}): ReactElement {
  return (
    <div className={`note ${className}`} role="status" data-testid={testId}>
      <Icon name="shield" size={18} />
      <p>
        {texts.text}{' '}
        <Link to={VERIFICATION_PATH} className={linkClassName}>
          {texts.go}
        </Link>
      </p>
    </div>
  );
}

/** The same prompt as a dialog, when the server refused an action for want of verification. */
export function VerifyDialog({
  open,
  onClose,
  texts,
  goTestId,
}: {
  open: boolean;
  onClose: () => void;
  texts: VerifyTexts & { title: string; later: string };
  goTestId: string;
}): ReactElement | null {
  const navigate = useNavigate();
  return (
    <Dialog
      open={open}
      title={texts.title}
      onClose={onClose}
      actions={
        <>
          <Button variant="ghost" onClick={onClose}>
            {texts.later}
          </Button>
          <Button onClick={() => void navigate({ to: VERIFICATION_PATH })} data-testid={goTestId}>
            {texts.go}
          </Button>
        </>
      }
    >
      <p>{texts.text}</p>
    </Dialog>
  );
}
