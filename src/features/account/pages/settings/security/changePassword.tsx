import type { FormEvent, ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { changePassword } from '../../../../../../core/api/account';
import { updatePasswordRequest } from '../../../../../../protocol/account';
import { useGoBack } from '../../../../../app/back';
import { Button } from '../../../../../components/Button';
import { PasswordField } from '../../../../../components/Field';
import { Page } from '../../../../../components/Page';
import { useForm } from '../../../../../hooks/useForm';
import { toast } from '../../../../../state/toasts';
import '../../../account.css';

export default function ChangePasswordPage(): ReactElement {
  const { t } = useTranslation();
  const goBack = useGoBack();
  const form = useForm({ old_password: '', password: '', repassword: '' });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!form.validate(updatePasswordRequest)) return;
    const r = await form.submitWith(() => changePassword(form.values));
    if (!r.ok) return;
    toast(t('security.passwordChanged'), 'success');
    goBack();
  };

  return (
    <Page title={t('security.changePassword')}>
      <form className="form" onSubmit={submit} noValidate>
        <PasswordField
          label={t('form.oldPassword')}
          {...form.bind('old_password')}
          autoComplete="current-password"
          placeholder={t('form.oldPasswordPlaceholder')}
        />
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
          {t('security.changePassword')}
        </Button>
      </form>
    </Page>
  );
}
