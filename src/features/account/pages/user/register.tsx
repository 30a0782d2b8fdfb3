import { Link, useRouter } from '@tanstack/react-router';
import type { FormEvent, ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { setServerLang } from '../../../../../core/api/account';
import { registerRequest } from '../../../../../protocol/account';
import { safeBackpage } from '../../../../app/guard';
import { Button } from '../../../../components/Button';
import { PasswordField } from '../../../../components/Field';
import { Page } from '../../../../components/Page';
import { useQueryParam } from '../../../../hooks/hooks';
import { useForm } from '../../../../hooks/useForm';
import { HOME_PATH } from '../../../../lib/first-route';
import { settings } from '../../../../state/settings';
import { toast } from '../../../../state/toasts';
import { ContactFields, type ContactValues, emptyContact } from '../../components/ContactFields';
import { InviteAndAgreement } from '../../components/InviteAndAgreement';
import { register } from '../../session';
import '../../account.css';

/** The form values as the register call takes them (all strings; the checkbox as '1'). */
export function registerValues(
  c: ContactValues,
  f: { password: string; repassword: string; invite: string; agree: boolean },
) {
  const common = {
    code: c.code,
    password: f.password,
    repassword: f.repassword,
    invite_code: f.invite.trim(),
    agree: f.agree ? '1' : '',
  };
  return c.type === 'mobile'
    ? { type: 'mobile' as const, area_code: c.dial, mobile: c.mobile, ...common }
    : { type: 'email' as const, email: c.email.trim(), ...common };
}

export default function RegisterPage(): ReactElement {
  const { t } = useTranslation();
  const router = useRouter();
  const { lang } = useSnapshot(settings);
  const backpage = safeBackpage(useQueryParam('backpage'));
  const typeParam = useQueryParam('type');
  const invitePrefill = useQueryParam('invite') ?? '';
  const form = useForm(() => ({
    ...emptyContact(typeParam === 'email' ? 'email' : 'mobile'),
    password: '',
    repassword: '',
    invite: invitePrefill,
    agree: false,
  }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const values = registerValues(form.values, form.values);
    if (!form.validate(registerRequest, values)) return;
    const r = await form.submitWith(() => register(values));
    if (!r.ok) return;
    void setServerLang(lang);
    toast(t('auth.registered', { name: r.data.user.username }), 'success');
    await router.navigate({ href: backpage ?? HOME_PATH, replace: true });
  };

  return (
    <Page title={t('auth.register')}>
      <div className="auth-head">
        <h2>{t('auth.registerTitle')}</h2>
        <p>{t('auth.registerLead')}</p>
      </div>
      <form className="form" onSubmit={submit} noValidate>
        <ContactFields values={form.values} onChange={form.patch} form={form} scene="register" />
        <PasswordField
          label={t('form.password')}
          {...form.bind('password')}
          autoComplete="new-password"
          placeholder={t('form.newPasswordPlaceholder')}
        />
        <PasswordField
          label={t('form.repassword')}
          {...form.bind('repassword')}
          autoComplete="new-password"
          placeholder={t('form.repasswordPlaceholder')}
        />
        <InviteAndAgreement
          invite={form.bind('invite', { error: 'invite_code' })}
          agree={form.values.agree}
          onAgree={(v) => form.set('agree', v)}
          agreeError={form.errors.agree}
        />
        <Button type="submit" block busy={form.busy}>
          {t('auth.createAccount')}
        </Button>
        <p className="form-foot">
          {t('auth.haveAccount')}{' '}
          <Link to="/pages/user/login/login" search={backpage ? { backpage } : {}}>
            {t('auth.login')}
          </Link>
        </p>
      </form>
    </Page>
  );
}
