import { type FormEvent, type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sendOwnCode, setFundPassword } from '../../../../../../core/api/account';
import { fundPasswordRequest } from '../../../../../../protocol/account';
import { useGoBack } from '../../../../../app/back';
import { Button } from '../../../../../components/Button';
import { Field, PasswordField } from '../../../../../components/Field';
import { Page } from '../../../../../components/Page';
import { Segmented } from '../../../../../components/Segmented';
import { useFundPasswordWasSet, useHasFundPassword } from '../../../../../data/fundPassword';
import { useCountdown } from '../../../../../hooks/hooks';
import { useForm } from '../../../../../hooks/useForm';
import { toast } from '../../../../../state/toasts';
import '../../../account.css';

type Mode = 'password' | 'code';

/** Only digits, at most six: the fund password inputs. */
const sixDigits = (v: string) => v.replace(/[^\d]/g, '').slice(0, 6);

export default function ChangePayPasswordPage(): ReactElement {
  const { t } = useTranslation();
  const goBack = useGoBack();
  const isSet = useHasFundPassword() ?? false;
  const wasSet = useFundPasswordWasSet();
  const [mode, setMode] = useState<Mode>('password');
  const form = useForm({ login_password: '', code: '', password: '', repassword: '' });
  const [sentTo, setSentTo] = useState('');
  const [sending, setSending] = useState(false);
  const [left, startCountdown] = useCountdown();

  const send = async () => {
    setSending(true);
    const r = await sendOwnCode('fund');
    setSending(false);
    startCountdown(r.retryAfter);
    if (!r.sent) return;
    setSentTo(r.to);
    toast(t('form.codeSentTo', { to: r.to }), 'success');
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { login_password, code, password, repassword } = form.values;
    const proof = mode === 'password' ? { mode, login_password } : { mode, code };
    const values = { ...proof, password, repassword };
    if (!form.validate(fundPasswordRequest, values)) return;
    const r = await form.submitWith(() => setFundPassword(values));
    if (!r.ok) return;
    wasSet();
    toast(t(isSet ? 'fund.changed' : 'fund.set'), 'success');
    goBack();
  };

  const title = isSet ? t('fund.changeTitle') : t('fund.setTitle');
  return (
    <Page title={title}>
      <div className="note note-info">
        <p>{t('fund.lead')}</p>
      </div>
      <form className="form" onSubmit={submit} noValidate>
        <Segmented
          label={t('fund.proof')}
          value={mode}
          options={[
            { value: 'password', label: t('fund.byPassword') },
            { value: 'code', label: t('fund.byCode') },
          ]}
          onChange={(m) => {
            setMode(m);
            form.setErrors({});
          }}
        />
        {mode === 'password' ? (
          <PasswordField
            label={t('fund.loginPassword')}
            {...form.bind('login_password')}
            autoComplete="current-password"
            placeholder={t('form.passwordPlaceholder')}
          />
        ) : (
          <Field
            label={t('form.code')}
            {...form.bind('code', { map: sixDigits })}
            hint={sentTo ? t('form.codeSentTo', { to: sentTo }) : t('fund.codeHint')}
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder={t('form.codePlaceholder')}
            end={
              <button type="button" className="code-btn" onClick={send} disabled={left > 0 || sending}>
                {left > 0 ? t('form.resendIn', { seconds: left }) : t('form.sendCode')}
              </button>
            }
          />
        )}
        <PasswordField
          label={t('fund.newPassword')}
          {...form.bind('password', { map: sixDigits })}
          inputMode="numeric"
          autoComplete="off"
          placeholder={t('fund.placeholder')}
        />
        <PasswordField
          label={t('fund.repeat')}
          {...form.bind('repassword', { map: sixDigits })}
          inputMode="numeric"
          autoComplete="off"
          placeholder={t('fund.repeatPlaceholder')}
        />
        <Button type="submit" block busy={form.busy}>
          {t('common.save')}
        </Button>
      </form>
    </Page>
  );
}
