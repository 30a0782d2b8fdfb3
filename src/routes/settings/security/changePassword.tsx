import { type FormEvent, type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updatePasswordRequest } from '../../../../protocol/account';
import { changePassword } from '../../../api/account';
import { useGoBack } from '../../../app/back';
import { Page } from '../../../app/Page';
import { Button } from '../../../components/Button';
import { PasswordField } from '../../../components/Field';
import { errorText } from '../../../lib/i18n';
import { check } from '../../../lib/validation';
import { toast } from '../../../state/toasts';

type Errors = Partial<Record<string, string>>;

export default function ChangePasswordPage(): ReactElement {
  const { t } = useTranslation();
  const goBack = useGoBack();
  const [values, setValues] = useState({ old_password: '', password: '', repassword: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  const set = (field: keyof typeof values) => (v: string) => {
    setValues((s) => ({ ...s, [field]: v }));
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = check(updatePasswordRequest, values);
    if (!checked.ok) {
      const shown: Errors = {};
      for (const [k, v] of Object.entries(checked.errors)) if (v) shown[k] = errorText(v);
      setErrors(shown);
      return;
    }
    setBusy(true);
    const r = await changePassword(values);
    setBusy(false);
    if (!r.ok) {
      if (r.field) setErrors((prev) => ({ ...prev, [r.field ?? '']: r.message }));
      return;
    }
    toast(t('security.passwordChanged'), 'success');
    goBack();
  };

  return (
    <Page title={t('security.changePassword')}>
      <form className="form" onSubmit={submit} noValidate>
        <PasswordField
          label={t('form.oldPassword')}
          value={values.old_password}
          onValue={set('old_password')}
          error={errors.old_password}
          autoComplete="current-password"
          placeholder={t('form.oldPasswordPlaceholder')}
        />
        <PasswordField
          label={t('form.newPassword')}
          value={values.password}
          onValue={set('password')}
          error={errors.password}
          autoComplete="new-password"
          placeholder={t('form.newPasswordPlaceholder')}
        />
        <PasswordField
          label={t('form.repeatNewPassword')}
          value={values.repassword}
          onValue={set('repassword')}
          error={errors.repassword}
          autoComplete="new-password"
          placeholder={t('form.repasswordPlaceholder')}
        />
        <Button type="submit" block busy={busy}>
          {t('security.changePassword')}
        </Button>
      </form>
    </Page>
  );
}
