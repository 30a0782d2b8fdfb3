import { Link, useRouter } from '@tanstack/react-router';
import { type FormEvent, type ReactElement, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { setServerLang } from '../../../../../../core/api/account';
import { loginRequest } from '../../../../../../protocol/account';
import { safeBackpage } from '../../../../../app/guard';
import { AreaCodeSelect } from '../../../../../components/AreaCodeSelect';
import { Button } from '../../../../../components/Button';
import { Field, PasswordField } from '../../../../../components/Field';
import { Page } from '../../../../../components/Page';
import { Segmented } from '../../../../../components/Segmented';
import { useAreaCodes } from '../../../../../data/areaCodes';
import { useQueryParam } from '../../../../../hooks/hooks';
import { useForm } from '../../../../../hooks/useForm';
import { HOME_PATH } from '../../../../../lib/first-route';
import { settings } from '../../../../../state/settings';
import { toast } from '../../../../../state/toasts';
import { WalletLogin } from '../../../components/WalletLogin';
import { login } from '../../../session';
import '../../../account.css';

type Mode = 'account' | 'mobile';

export default function LoginPage(): ReactElement {
  const { t } = useTranslation();
  const router = useRouter();
  const { langMark, lang } = useSnapshot(settings);
  const backpage = safeBackpage(useQueryParam('backpage'));
  const typeParam = useQueryParam('type');
  const invitePrefill = useQueryParam('invite') ?? '';
  const [mode, setMode] = useState<Mode>(typeParam === 'mobile' ? 'mobile' : 'account');
  const { codes, defaultIso } = useAreaCodes(langMark);
  const [areaIso, setAreaIso] = useState('');
  const form = useForm({ account: '', password: '' });

  useEffect(() => {
    if (!areaIso && defaultIso) setAreaIso(defaultIso);
  }, [areaIso, defaultIso]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const dial = codes.find((c) => c.iso === areaIso)?.dial;
    const { account, password } = form.values;
    const values = { account: account.trim(), password, ...(mode === 'mobile' && dial ? { area_code: dial } : {}) };
    if (!form.validate(loginRequest, values)) return;
    const r = await form.submitWith(() => login(values));
    if (!r.ok) return;
    void setServerLang(lang);
    toast(t('auth.welcome', { name: r.data.user.username }), 'success');
    await router.navigate({ href: backpage ?? HOME_PATH, replace: true });
  };

  return (
    <Page title={t('auth.login')}>
      <div className="auth-head">
        <h2>{t('auth.loginTitle')}</h2>
        <p>{t('auth.loginLead')}</p>
      </div>
      <form className="form" onSubmit={submit} noValidate>
        <Segmented
          label={t('form.contactType')}
          value={mode}
          options={[
            { value: 'account', label: t('auth.byAccount') },
            { value: 'mobile', label: t('form.byPhone') },
          ]}
          onChange={(m) => {
            setMode(m);
            form.setErrors({});
          }}
        />
        {mode === 'mobile' ? (
          <Field
            label={t('form.phone')}
            {...form.bind('account', { map: (v) => v.replace(/[^\d]/g, '') })}
            inputMode="numeric"
            autoComplete="tel-national"
            placeholder={t('form.phonePlaceholder')}
            start={
              <AreaCodeSelect
                codes={codes}
                value={areaIso}
                onChange={setAreaIso}
                locale={langMark}
                label={t('form.areaCode')}
              />
            }
          />
        ) : (
          <Field
            label={t('auth.account')}
            {...form.bind('account')}
            autoComplete="username"
            autoCapitalize="off"
            spellCheck={false}
            placeholder={t('auth.accountPlaceholder')}
          />
        )}
        <PasswordField
          label={t('form.password')}
          {...form.bind('password')}
          autoComplete="current-password"
          placeholder={t('form.passwordPlaceholder')}
        />
        <div className="form-links">
          <Link to="/pages/user/forgetPassword">{t('auth.forgot')}</Link>
        </div>
        <Button type="submit" block busy={form.busy}>
          {t('auth.login')}
        </Button>
        <p className="form-foot">
          {t('auth.noAccount')}{' '}
          <Link to="/pages/user/choose" search={backpage ? { backpage } : {}}>
            {t('auth.register')}
          </Link>
        </p>
      </form>
      <WalletLogin
        invitePrefill={invitePrefill}
        onLoggedIn={(s, registered) => {
          void setServerLang(lang);
          toast(t(registered ? 'auth.registered' : 'auth.welcome', { name: s.user.username }), 'success');
          void router.navigate({ href: backpage ?? HOME_PATH, replace: true });
        }}
      />
    </Page>
  );
}
