import { Link } from '@tanstack/react-router';
import type { FormEvent, ReactElement } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { submitAdvancedVerification } from '../../../../../core/api/identity';
import { advancedVerificationRequest } from '../../../../../protocol/identity';
import { Button } from '../../../../components/Button';
import { Checkbox } from '../../../../components/Controls';
import { Icon } from '../../../../components/Icon';
import { Page } from '../../../../components/Page';
import { ImageUploadField } from '../../../../data/upload/ImageUploadField';
import { useForm } from '../../../../hooks/useForm';
import { toast } from '../../../../state/toasts';
import { Loading, StatusCard } from '../../components/parts';
import { useVerificationInfo } from '../../hooks/useVerification';
import '../../identity.css';

type Photo = 'front' | 'back' | 'hold';
const PHOTOS: readonly Photo[] = ['front', 'back', 'hold'];

/** Advanced verification (user/real_name2): three photos of the ID and consent; only after basic is verified. */
export default function AdvancedVerificationPage(): ReactElement {
  const { t } = useTranslation();
  const { info, failed, reload } = useVerificationInfo();
  const form = useForm<{ front: number | null; back: number | null; hold: number | null; consent: boolean }>({
    front: null,
    back: null,
    hold: null,
    consent: false,
  });

  if (!info) {
    return (
      <Page title={t('kyc.advanced')}>
        <Loading failed={failed} retry={() => void reload()} />
      </Page>
    );
  }

  const { basic, advanced } = info;
  if (basic.state !== 'verified') {
    return (
      <Page title={t('kyc.advanced')}>
        <div className="page-center state-view kyc-blocked">
          <span className="state-icon" aria-hidden="true">
            <Icon name="lock" size={28} />
          </span>
          <h2 className="state-title">{t('kyc.needBasicTitle')}</h2>
          <p className="state-text">{t('kyc.needBasicText')}</p>
          <Link to="/pages/verification/basic" className="btn btn-primary">
            {t('kyc.goBasic')}
          </Link>
        </div>
      </Page>
    );
  }
  if (advanced.state === 'pending' || advanced.state === 'verified') {
    const verified = advanced.state === 'verified';
    return (
      <Page title={t('kyc.advanced')}>
        <StatusCard
          state={advanced.state}
          title={verified ? t('kyc.verifiedTitle') : t('kyc.pendingTitle')}
          text={verified ? t('kyc.verifiedAdvancedText') : t('kyc.pendingText')}
          submittedAt={advanced.submitted_at}
          reviewedAt={advanced.reviewed_at}
        />
      </Page>
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { front, back, hold, consent } = form.values;
    const values = {
      front: front === null ? '' : String(front),
      back: back === null ? '' : String(back),
      hold: hold === null ? '' : String(hold),
      consent: consent ? '1' : '',
    };
    if (!form.validate(advancedVerificationRequest, values)) return;
    const r = await form.submitWith(() => submitAdvancedVerification(values));
    if (!r.ok) return;
    toast(t('kyc.submitted'), 'success');
    await reload();
  };

  return (
    <Page title={t('kyc.advanced')}>
      {advanced.state === 'rejected' ? (
        <StatusCard
          state="rejected"
          title={t('kyc.rejectedTitle')}
          text={t('kyc.rejectedText')}
          reason={advanced.reason}
          reviewedAt={advanced.reviewed_at}
        />
      ) : null}
      <div className="note note-info">
        <Icon name="info" size={18} />
        <p>
          {t('kyc.photosLead')} {t('upload.limits')}
        </p>
      </div>
      <form className="form" onSubmit={submit} noValidate>
        {PHOTOS.map((photo) => (
          <ImageUploadField
            key={photo}
            label={t(`kyc.${photo}`)}
            hint={t(`kyc.${photo}Hint`)}
            value={form.values[photo]}
            onChange={(id) => form.set(photo, id)}
            error={form.errors[photo]}
            disabled={form.busy}
          />
        ))}
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
