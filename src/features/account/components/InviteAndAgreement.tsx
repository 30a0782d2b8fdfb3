import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Checkbox } from '../../../components/Controls';
import { Field } from '../../../components/Field';
import type { Bound } from '../../../hooks/useForm';

/**
 * What every new account gives besides its contact (SPEC 5): the invite code and the ticked user agreement with the
 * links to the texts it agrees to. Registration and a new wallet's sign-up show the same two fields.
 */
export function InviteAndAgreement({
  invite,
  agree,
  onAgree,
  agreeError,
}: {
  /** The invite field bound to the form (its error under `invite_code`). */
  invite: Bound;
  agree: boolean;
  onAgree: (v: boolean) => void;
  agreeError: string | undefined;
}): ReactElement {
  const { t } = useTranslation();
  return (
    <>
      <Field
        label={t('form.invite')}
        {...invite}
        autoCapitalize="characters"
        autoComplete="off"
        spellCheck={false}
        placeholder={t('form.invitePlaceholder')}
      />
      <Checkbox checked={agree} onChange={onAgree} error={agreeError}>
        <Trans
          i18nKey="auth.agreeLabel"
          components={{
            terms: <Link to="/pages/user/privacyAgreement/userAgreement" />,
            privacy: <Link to="/pages/user/privacyAgreement/privacyAgreement" />,
            consent: <Link to="/pages/user/agree/agree" />,
          }}
        />
      </Checkbox>
    </>
  );
}
