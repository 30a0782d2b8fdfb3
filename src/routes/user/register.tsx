import { Link, useRouter } from '@tanstack/react-router';
import { type FormEvent, type ReactElement, useCallback, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { registerRequest } from '../../../protocol/account';
import { register, setServerLang } from '../../api/account';
import { ContactFields, type ContactValues, emptyContact } from '../../app/account/ContactFields';
import { safeBackpage } from '../../app/guard';
import { useQueryParam } from '../../app/hooks';
import { Page } from '../../app/Page';
import { HOME_PATH } from '../../app/tabs';
import { Button } from '../../components/Button';
import { Checkbox } from '../../components/Controls';
import { Field, PasswordField } from '../../components/Field';
import { errorText } from '../../lib/i18n';
import { check } from '../../lib/validation';
import { settings } from '../../state/settings';
import { toast } from '../../state/toasts';

type Errors = Partial<Record<string, string>>;

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
  const [contact, setContact] = useState<ContactValues>(() => emptyContact(typeParam === 'email' ? 'email' : 'mobile'));
  const invitePrefill = useQueryParam('invite') ?? '';
  const [password, setPassword] = useState('');
  const [repassword, setRepassword] = useState('');
  const [invite, setInvite] = useState(invitePrefill);
  const [agree, setAgree] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  const onContact = useCallback((patch: Partial<ContactValues>) => setContact((c) => ({ ...c, ...patch })), []);
  const clear = (field: string) => setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const values = registerValues(contact, { password, repassword, invite, agree });
    const checked = check(registerRequest, values);
    if (!checked.ok) {
      const shown: Errors = {};
      for (const [k, v] of Object.entries(checked.errors)) if (v) shown[k] = errorText(v);
      setErrors(shown);
      return;
    }
    setBusy(true);
    const r = await register(values);
    setBusy(false);
    if (!r.ok) {
      if (r.field) setErrors((prev) => ({ ...prev, [r.field ?? '']: r.message }));
      return;
    }
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
        <ContactFields values={contact} onChange={onContact} errors={errors} setErrors={setErrors} scene="register" />
        <PasswordField
          label={t('form.password')}
          value={password}
          onValue={(v) => {
            setPassword(v);
            clear('password');
          }}
          error={errors.password}
          autoComplete="new-password"
          placeholder={t('form.newPasswordPlaceholder')}
        />
        <PasswordField
          label={t('form.repassword')}
          value={repassword}
          onValue={(v) => {
            setRepassword(v);
            clear('repassword');
          }}
          error={errors.repassword}
          autoComplete="new-password"
          placeholder={t('form.repasswordPlaceholder')}
        />
        <Field
          label={t('form.invite')}
          value={invite}
          onValue={(v) => {
            setInvite(v);
            clear('invite_code');
          }}
          error={errors.invite_code}
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          placeholder={t('form.invitePlaceholder')}
        />
        <Checkbox
          checked={agree}
          onChange={(v) => {
            setAgree(v);
            clear('agree');
          }}
          error={errors.agree}
        >
          <Trans
            i18nKey="auth.agreeLabel"
            components={{
              terms: <Link to="/pages/user/privacyAgreement/userAgreement" />,
              privacy: <Link to="/pages/user/privacyAgreement/privacyAgreement" />,
              consent: <Link to="/pages/user/agree/agree" />,
            }}
          />
        </Checkbox>
        <Button type="submit" block busy={busy}>
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
