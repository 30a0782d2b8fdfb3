import { type FormEvent, type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { opsLoginRequest } from '../../protocol/ops-console';
import { Button } from '../components/Button';
import { Field, PasswordField } from '../components/Field';
import { Icon } from '../components/Icon';
import { errorText } from '../lib/i18n';
import { consoleSession, opsCall, signedIn } from './api';
import { ConsoleTools } from './ConsoleTools';

type FieldName = 'name' | 'password' | 'code';

/** Operator sign-in: name, password and the authenticator app's current code. */
export function LoginScreen({ onSignedIn }: { onSignedIn: () => void }): ReactElement {
  const { t } = useTranslation();
  const { ended } = useSnapshot(consoleSession);
  const [values, setValues] = useState<Record<FieldName, string>>({ name: '', password: '', code: '' });
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (field: FieldName) => (v: string) => setValues((old) => ({ ...old, [field]: v }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    // The server's rules, checked here first (protocol/ops-console.ts), each field with its own message.
    const checked = opsLoginRequest.safeParse(values);
    if (!checked.success) {
      const found: Partial<Record<FieldName, string>> = {};
      for (const issue of checked.error.issues) {
        const field = issue.path[0] as FieldName;
        found[field] ??= errorText(issue.message);
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setBusy(true);
    const result = await opsCall('ops/login', values);
    setBusy(false);
    if (!result.ok) {
      if (result.field === 'name' || result.field === 'password' || result.field === 'code') {
        setErrors({ [result.field]: result.message });
      } else setFailure(result.message);
      // A refused code is gone: the next one is needed.
      setValues((old) => ({ ...old, code: '' }));
      return;
    }
    signedIn(result.data.token, result.data.operator);
    onSignedIn();
  };

  return (
    <div className="ops-login">
      <div className="ops-login-tools">
        <ConsoleTools />
      </div>
      <main className="ops-login-card">
        <p className="ops-brand">
          <Icon name="shield" size={22} /> {t('console.brand')}
        </p>
        <h1 className="ops-login-title">{t('console.login.title')}</h1>
        <p className="ops-login-intro">{t('console.login.intro')}</p>
        {ended ? (
          <p className="ops-banner" role="alert">
            {ended}
          </p>
        ) : null}
        <form className="form" onSubmit={(e) => void submit(e)} noValidate>
          <Field
            label={t('console.login.name')}
            value={values.name}
            onValue={set('name')}
            error={errors.name}
            autoComplete="username"
            autoCapitalize="off"
            spellCheck={false}
          />
          <PasswordField
            label={t('console.login.password')}
            value={values.password}
            onValue={set('password')}
            error={errors.password}
            autoComplete="current-password"
          />
          <Field
            label={t('console.login.code')}
            value={values.code}
            onValue={set('code')}
            error={errors.code}
            hint={t('console.login.codeHint')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
          />
          {failure ? (
            <p className="field-msg field-error" role="alert">
              {failure}
            </p>
          ) : null}
          <Button type="submit" block busy={busy}>
            {t('console.login.submit')}
          </Button>
        </form>
      </main>
    </div>
  );
}
