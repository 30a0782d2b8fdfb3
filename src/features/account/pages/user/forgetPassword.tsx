import { Link, useRouter } from '@tanstack/react-router';
import type { FormEvent, ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { resetPassword } from '../../../../../core/api/account';
import { forgetRequest } from '../../../../../protocol/account';
import { LOGIN_PATH } from '../../../../app/guard';
import { Button } from '../../../../components/Button';
import { PasswordField } from '../../../../components/Field';
import { Page } from '../../../../components/Page';
import { useForm } from '../../../../hooks/useForm';
import { toast } from '../../../../state/toasts';
import { ContactFields, emptyContact } from '../../components/ContactFields';
import '../../account.css';

export default function ForgetPasswordPage(): ReactElement {
  const { t } = useTranslation();
  const router = useRouter();
  const form = useForm(() => ({ ...emptyContact('mobile'), password: '', repassword: '' }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const v = form.values;
    const common = { code: v.code, password: v.password, repassword: v.repassword };
    const values =
      v.type === 'mobile'
        ? { type: 'mobile' as const, area_code: v.dial, mobile: v.mobile, ...common }
        : { type: 'email' as const, email: v.email.trim(), ...common };
    if (!form.validate(forgetRequest, values)) return;
    const r = await form.submitWith(() => resetPassword(values));
    if (!r.ok) return;
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
        <ContactFields values={form.values} onChange={form.patch} form={form} scene="forget" />
        <PasswordField
          label={t('form.newPassword')}
          {...form.bind('password')}
          autoComplete="new-password"
          placeholder={t('form.newPasswordPlaceholder')}
        />
        <PasswordField
          label={t('form.repeatNewPassword')}
          {...form.bind('repassword')}
          autoComplete="new-password"
          placeholder={t('form.repasswordPlaceholder')}
        />
        <Button type="submit" block busy={form.busy}>
          {t('forget.submit')}
        </Button>
        <p className="form-foot">
          <Link to={LOGIN_PATH}>{t('forget.backToLogin')}</Link>
        </p>
      </form>
    </Page>
  );
}
