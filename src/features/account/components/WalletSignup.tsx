import type { FormEvent, ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { walletLogin } from '../../../../core/api/wallet-login';
import { provedContact, type SessionResponse } from '../../../../protocol/account';
import { inviteCodeField, tickedField } from '../../../../protocol/fields';
import { Button } from '../../../components/Button';
import { Dialog } from '../../../components/Dialog';
import { useForm } from '../../../hooks/useForm';
import { ContactFields, emptyContact } from './ContactFields';
import { InviteAndAgreement } from './InviteAndAgreement';
import type { SignedWalletMessage } from './WalletChainButtons';

/** What a new wallet's account needs, checked before sending: a proved contact (SPEC 5), an invite, the agreement. */
const signupCheck = z.intersection(
  provedContact,
  z.object({ invite_code: inviteCodeField, agree: tickedField('agreementRequired') }),
);
/** The fields of the dialog: a refusal naming one is shown there; any other ends the dialog. */
const SIGNUP_FIELDS = new Set(['type', 'area_code', 'mobile', 'email', 'code', 'invite_code', 'agree']);

/**
 * A new wallet's account (SPEC 5, as registration): a phone or e-mail with its code, the invite code and the user
 * agreement, sent with the signature the wallet already gave. Loaded only when a wallet turns out to be new, so the
 * login page's first load does not carry the form.
 */
export default function WalletSignup({
  pending,
  invitePrefill,
  onClose,
  onRegistered,
  onFailed,
}: {
  pending: SignedWalletMessage;
  invitePrefill: string;
  onClose: () => void;
  onRegistered: (session: SessionResponse) => void;
  /** A refusal the form cannot fix (the signature expired or was used): the dialog ends with it. */
  onFailed: (message: string) => void;
}): ReactElement {
  const { t } = useTranslation();
  const form = useForm(() => ({ ...emptyContact('email'), invite: invitePrefill, agree: false }));

  const signup = async (e: FormEvent) => {
    e.preventDefault();
    const v = form.values;
    const body = {
      ...pending,
      ...(v.type === 'mobile'
        ? { type: 'mobile' as const, area_code: v.dial, mobile: v.mobile }
        : { type: 'email' as const, email: v.email.trim() }),
      code: v.code,
      invite_code: v.invite.trim(),
      agree: v.agree ? '1' : '',
    };
    if (!form.validate(signupCheck, body)) return;
    const r = await form.submitWith(() => walletLogin(body));
    if (r.ok) onRegistered(r.data);
    // The signature can no longer be used (expired, taken): start again from the buttons.
    else if (!r.field || !SIGNUP_FIELDS.has(r.field)) onFailed(r.message);
  };

  return (
    <Dialog
      open
      title={t('walletLogin.newTitle')}
      onClose={onClose}
      actions={
        <>
          <Button variant="ghost" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" form="wallet-signup" busy={form.busy}>
            {t('auth.createAccount')}
          </Button>
        </>
      }
    >
      <form id="wallet-signup" className="form" onSubmit={signup} noValidate>
        <p>{t('walletLogin.newLead')}</p>
        <ContactFields values={form.values} onChange={form.patch} form={form} scene="register" />
        <InviteAndAgreement
          invite={form.bind('invite', { error: 'invite_code' })}
          agree={form.values.agree}
          onAgree={(v) => form.set('agree', v)}
          agreeError={form.errors.agree}
        />
      </form>
    </Dialog>
  );
}
