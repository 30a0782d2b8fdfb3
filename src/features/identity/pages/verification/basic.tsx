import { Link } from '@tanstack/react-router';
import type { FormEvent, ReactElement } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { submitBasicVerification } from '../../../../../core/api/identity';
import { basicVerificationRequest } from '../../../../../protocol/identity';
import { Button } from '../../../../components/Button';
import { Checkbox } from '../../../../components/Controls';
import { Field } from '../../../../components/Field';
import { Icon } from '../../../../components/Icon';
import { Page } from '../../../../components/Page';
import { useForm } from '../../../../hooks/useForm';
import { toast } from '../../../../state/toasts';
import { CountrySelect, countryName } from '../../components/CountrySelect';
import { Loading, StatusCard } from '../../components/parts';
import { useVerificationInfo } from '../../hooks/useVerification';
import '../../identity.css';

/** Basic verification (user/real_name): country, full name, ID number, contact address and consent. */
export default function BasicVerificationPage(): ReactElement {
  const { t, i18n } = useTranslation();
  const { info, failed, reload } = useVerificationInfo();
  const form = useForm({ country: '', name: '', id_number: '', address: '', consent: false });

  if (!info) {
    return (
      <Page title={t('kyc.basic')}>
        <Loading failed={failed} retry={() => void reload()} />
      </Page>
    );
  }

  const basic = info.basic;
  if (basic.state === 'pending' || basic.state === 'verified') {
    const verified = basic.state === 'verified';
    const country = basic.country ? countryName(basic.country, i18n.language) : '';
    return (
      <Page title={t('kyc.basic')}>
        <StatusCard
          state={basic.state}
          title={verified ? t('kyc.verifiedTitle') : t('kyc.pendingTitle')}
          text={verified ? t('kyc.verifiedBasicText') : t('kyc.pendingText')}
          submittedAt={basic.submitted_at}
          reviewedAt={basic.reviewed_at}
        />
        <section className="card">
          <h2 className="list-title">{t('kyc.submittedData')}</h2>
          <dl className="kv">
            <dt>{t('kyc.country')}</dt>
            <dd>{country}</dd>
            <dt>{t('kyc.name')}</dt>
            <dd>{basic.name}</dd>
            <dt>{t('kyc.idNumber')}</dt>
            <dd>{basic.id_number}</dd>
          </dl>
        </section>
        {verified && (info.advanced.state === 'none' || info.advanced.state === 'rejected') ? (
          <Link to="/pages/verification/advanced" className="btn btn-primary btn-block kyc-next">
            {t('kyc.goAdvanced')}
          </Link>
        ) : null}
      </Page>
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { consent, ...fields } = form.values;
    const values = { ...fields, consent: consent ? '1' : '' };
    if (!form.validate(basicVerificationRequest, values)) return;
    const r = await form.submitWith(() => submitBasicVerification(values));
    if (!r.ok) return;
    toast(t('kyc.submitted'), 'success');
    await reload();
  };

  return (
    <Page title={t('kyc.basic')}>
      {basic.state === 'rejected' ? (
        <StatusCard
          state="rejected"
          title={t('kyc.rejectedTitle')}
          text={t('kyc.rejectedText')}
          reason={basic.reason}
          reviewedAt={basic.reviewed_at}
        />
      ) : (
        <div className="note note-info">
          <Icon name="shield" size={18} />
          <p>{t('kyc.basicLead')}</p>
        </div>
      )}
      <form className="form" onSubmit={submit} noValidate>
        <CountrySelect
          label={t('kyc.country')}
          placeholder={t('kyc.countryPlaceholder')}
          value={form.values.country}
          onChange={(v) => form.set('country', v)}
          error={form.errors.country}
          locale={i18n.language}
        />
        <Field
          label={t('kyc.name')}
          {...form.bind('name')}
          autoComplete="name"
          placeholder={t('kyc.namePlaceholder')}
        />
        <Field
          label={t('kyc.idNumber')}
          {...form.bind('id_number')}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder={t('kyc.idNumberPlaceholder')}
        />
        <Field
          label={t('kyc.address')}
          {...form.bind('address')}
          autoComplete="street-address"
          placeholder={t('kyc.addressPlaceholder')}
        />
        <Checkbox checked={form.values.consent} onChange={(v) => form.set('consent', v)} error={form.errors.consent}>
          <Trans
            i18nKey="kyc.consent"
            components={{
              notice: <Link to="/pages/verification/agree" />,
              privacy: <Link to="/pages/user/privacyAgreement/privacyAgreement" />,
            }}
          />
        </Checkbox>
        <Button type="submit" block busy={form.busy}>
          {t('kyc.submit')}
        </Button>
      </form>
    </Page>
  );
}
