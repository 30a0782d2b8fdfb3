import { type ReactElement, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { type Contact, sendCode } from '../../../../core/api/account';
import { emailSendRequest, smsSendRequest } from '../../../../protocol/account';
import { AreaCodeSelect } from '../../../components/AreaCodeSelect';
import { Field } from '../../../components/Field';
import { Segmented } from '../../../components/Segmented';
import { useAreaCodes } from '../../../data/areaCodes';
import { useCountdown } from '../../../hooks/hooks';
import type { FormErrors } from '../../../hooks/useForm';
import { settings } from '../../../state/settings';
import { toast } from '../../../state/toasts';

export type ContactType = Contact['type'];

export interface ContactValues {
  type: ContactType;
  areaIso: string;
  /** The calling code of `areaIso`, as sent to the server. */
  dial: string;
  mobile: string;
  email: string;
  code: string;
}

export const emptyContact = (type: ContactType = 'mobile'): ContactValues => ({
  type,
  areaIso: '',
  dial: '',
  mobile: '',
  email: '',
  code: '',
});

/** Phone or e-mail with a calling code and a verification code (with resend countdown), for register and reset. */
export function ContactFields({
  values,
  onChange,
  form,
  scene,
}: {
  values: ContactValues;
  onChange: (patch: Partial<ContactValues>) => void;
  /** The page's form: messages per field, shown and cleared here for the contact fields. */
  form: FormErrors;
  scene: 'register' | 'forget';
}): ReactElement {
  const { t } = useTranslation();
  const { langMark } = useSnapshot(settings);
  const { codes, defaultIso } = useAreaCodes(langMark);
  const [left, startCountdown] = useCountdown();
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (values.areaIso || !defaultIso) return;
    onChange({ areaIso: defaultIso, dial: codes.find((c) => c.iso === defaultIso)?.dial ?? '' });
  }, [values.areaIso, defaultIso, codes, onChange]);

  const send = async () => {
    const contact =
      values.type === 'mobile'
        ? { type: 'mobile' as const, area_code: values.dial, mobile: values.mobile }
        : { type: 'email' as const, email: values.email };
    const checked =
      contact.type === 'mobile'
        ? form.validate(smsSendRequest, { area_code: contact.area_code, mobile: contact.mobile, scene }, { keep: true })
        : form.validate(emailSendRequest, { email: contact.email, scene }, { keep: true });
    if (!checked) return;
    setSending(true);
    const { sent, retryAfter } = await sendCode(contact, scene);
    setSending(false);
    startCountdown(retryAfter);
    if (!sent) return;
    toast(t(contact.type === 'mobile' ? 'form.codeSentPhone' : 'form.codeSentEmail'), 'success');
  };

  const { errors, clear } = form;

  return (
    <>
      <Segmented
        label={t('form.contactType')}
        value={values.type}
        options={[
          { value: 'mobile', label: t('form.byPhone') },
          { value: 'email', label: t('form.byEmail') },
        ]}
        onChange={(type) => {
          onChange({ type });
          form.setErrors({});
        }}
      />
      {values.type === 'mobile' ? (
        <Field
          label={t('form.phone')}
          value={values.mobile}
          onValue={(mobile) => {
            onChange({ mobile: mobile.replace(/[^\d]/g, '') });
            clear('mobile');
          }}
          error={errors.mobile ?? errors.area_code}
          inputMode="numeric"
          autoComplete="tel-national"
          placeholder={t('form.phonePlaceholder')}
          start={
            <AreaCodeSelect
              codes={codes}
              value={values.areaIso}
              onChange={(areaIso) => {
                onChange({ areaIso, dial: codes.find((c) => c.iso === areaIso)?.dial ?? '' });
                clear('area_code');
              }}
              locale={langMark}
              label={t('form.areaCode')}
            />
          }
        />
      ) : (
        <Field
          label={t('form.email')}
          value={values.email}
          onValue={(email) => {
            onChange({ email });
            clear('email');
          }}
          error={errors.email}
          type="email"
          inputMode="email"
          autoComplete="email"
          autoCapitalize="off"
          placeholder={t('form.emailPlaceholder')}
        />
      )}
      <Field
        label={t('form.code')}
        value={values.code}
        onValue={(code) => {
          onChange({ code: code.replace(/[^\d]/g, '').slice(0, 6) });
          clear('code');
        }}
        error={errors.code}
        inputMode="numeric"
        autoComplete="one-time-code"
        placeholder={t('form.codePlaceholder')}
        end={
          <button type="button" className="code-btn" onClick={send} disabled={left > 0 || sending}>
            {left > 0 ? t('form.resendIn', { seconds: left }) : t('form.sendCode')}
          </button>
        }
      />
    </>
  );
}
