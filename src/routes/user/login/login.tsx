import { Link, useRouter } from '@tanstack/react-router';
import { type FormEvent, type ReactElement, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { loginRequest } from '../../../../protocol/account';
import { login, setServerLang } from '../../../api/account';
import { useAreaCodes } from '../../../app/account/useAreaCodes';
import { safeBackpage } from '../../../app/guard';
import { useQueryParam } from '../../../app/hooks';
import { Page } from '../../../app/Page';
import { HOME_PATH } from '../../../app/tabs';
import { AreaCodeSelect } from '../../../components/AreaCodeSelect';
import { Button } from '../../../components/Button';
import { Field, PasswordField } from '../../../components/Field';
import { Segmented } from '../../../components/Segmented';
import { errorText } from '../../../lib/i18n';
import { check, type FieldErrors } from '../../../lib/validation';
import { settings } from '../../../state/settings';
import { toast } from '../../../state/toasts';

type Mode = 'account' | 'mobile';

export default function LoginPage(): ReactElement {
  const { t } = useTranslation();
  const router = useRouter();
  const { langMark, lang } = useSnapshot(settings);
  const backpage = safeBackpage(useQueryParam('backpage'));
  const typeParam = useQueryParam('type');
  const [mode, setMode] = useState<Mode>(typeParam === 'mobile' ? 'mobile' : 'account');
  const { codes, defaultIso } = useAreaCodes(langMark);
  const [areaIso, setAreaIso] = useState('');
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!areaIso && defaultIso) setAreaIso(defaultIso);
  }, [areaIso, defaultIso]);

  const clear = useCallback((field: string) => setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e)), []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const dial = codes.find((c) => c.iso === areaIso)?.dial;
    const values = { account: account.trim(), password, ...(mode === 'mobile' && dial ? { area_code: dial } : {}) };
    const checked = check(loginRequest, values);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setBusy(true);
    const r = await login(values);
    setBusy(false);
    if (!r.ok) return;
    void setServerLang(lang);
    toast(t('auth.welcome', { name: r.data.user.username }), 'success');
    await router.navigate({ href: backpage ?? HOME_PATH, replace: true });
  };

  const err = (field: string) => {
    const key = errors[field];
    return key ? errorText(key) : undefined;
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
            setErrors({});
          }}
        />
        {mode === 'mobile' ? (
          <Field
            label={t('form.phone')}
            value={account}
            onValue={(v) => {
              setAccount(v.replace(/[^\d]/g, ''));
              clear('account');
            }}
            error={err('account')}
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
            value={account}
            onValue={(v) => {
              setAccount(v);
              clear('account');
            }}
            error={err('account')}
            autoComplete="username"
            autoCapitalize="off"
            spellCheck={false}
            placeholder={t('auth.accountPlaceholder')}
          />
        )}
        <PasswordField
          label={t('form.password')}
          value={password}
          onValue={(v) => {
            setPassword(v);
            clear('password');
          }}
          error={err('password')}
          autoComplete="current-password"
          placeholder={t('form.passwordPlaceholder')}
        />
        <div className="form-links">
          <Link to="/pages/user/forgetPassword">{t('auth.forgot')}</Link>
        </div>
        <Button type="submit" block busy={busy}>
          {t('auth.login')}
        </Button>
        <p className="form-foot">
          {t('auth.noAccount')}{' '}
          <Link to="/pages/user/choose" search={backpage ? { backpage } : {}}>
            {t('auth.register')}
          </Link>
        </p>
      </form>
    </Page>
  );
}
