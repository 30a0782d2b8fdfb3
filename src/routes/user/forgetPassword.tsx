import { Link, useRouter } from '@tanstack/react-router';
import { type FormEvent, type ReactElement, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { forgetRequest } from '../../../protocol/account';
import { resetPassword } from '../../api/account';
import { ContactFields, type ContactValues, emptyContact } from '../../app/account/ContactFields';
import { LOGIN_PATH } from '../../app/guard';
import { Page } from '../../app/Page';
import { Button } from '../../components/Button';
import { PasswordField } from '../../components/Field';
import { errorText } from '../../lib/i18n';
import { check } from '../../lib/validation';
import { toast } from '../../state/toasts';

type Errors = Partial<Record<string, string>>;

export default function ForgetPasswordPage(): ReactElement {
  const { t } = useTranslation();
  const router = useRouter();
  const [contact, setContact] = useState<ContactValues>(() => emptyContact('mobile'));
  const [password, setPassword] = useState('');
  const [repassword, setRepassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  const onContact = useCallback((patch: Partial<ContactValues>) => setContact((c) => ({ ...c, ...patch })), []);
  const clear = (field: string) => setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const common = { code: contact.code, password, repassword };
    const values =
      contact.type === 'mobile'
        ? { type: 'mobile' as const, area_code: contact.dial, mobile: contact.mobile, ...common }
        : { type: 'email' as const, email: contact.email.trim(), ...common };
    const checked = check(forgetRequest, values);
    if (!checked.ok) {
      const shown: Errors = {};
      for (const [k, v] of Object.entries(checked.errors)) if (v) shown[k] = errorText(v);
      setErrors(shown);
      return;
    }
    setBusy(true);
    const r = await resetPassword(values);
    setBusy(false);
    if (!r.ok) {
      if (r.field) setErrors((prev) => ({ ...prev, [r.field ?? '']: r.message }));
      return;
    }
    toast(t('forget.done'), 'success');
    await router.navigate({ to: LOGIN_PATH, replace: true });
  };

  return (
    <Page title={t('forget.title')}>
      <div className="auth-head">
        <h2>{t('forget.heading')}</h2>
        <p>{t('forget.lead')}</p>
      </div>
      <form className="form" onSubmit={submit} noValidate>
        <ContactFields values={contact} onChange={onContact} errors={errors} setErrors={setErrors} scene="forget" />
        <PasswordField
          label={t('form.newPassword')}
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
          label={t('form.repeatNewPassword')}
          value={repassword}
          onValue={(v) => {
            setRepassword(v);
            clear('repassword');
          }}
          error={errors.repassword}
          autoComplete="new-password"
          placeholder={t('form.repasswordPlaceholder')}
        />
        <Button type="submit" block busy={busy}>
          {t('forget.submit')}
        </Button>
        <p className="form-foot">
          <Link to={LOGIN_PATH}>{t('forget.backToLogin')}</Link>
        </p>
      </form>
    </Page>
  );
}
