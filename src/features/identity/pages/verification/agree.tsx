import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { LegalDoc, type LegalSection } from '../../../../components/LegalDoc';
import { Page } from '../../../../components/Page';
import '../../identity.css';

function asSections(v: unknown): LegalSection[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((s: unknown) => {
    if (!s || typeof s !== 'object' || !('h' in s) || !('p' in s)) return [];
    const { h, p } = s;
    if (typeof h !== 'string' || !Array.isArray(p)) return [];
    return [{ h, p: p.filter((x: unknown): x is string => typeof x === 'string') }];
  });
}

/** The verification notice the consent box refers to: why we verify, what we keep, how long, the user's rights. */
export default function VerificationNoticePage(): ReactElement {
  const { t } = useTranslation();
  const sections = asSections(t('kyc.agree.sections', { returnObjects: true }));
  return (
    <Page title={t('kyc.agree.title')}>
      <LegalDoc meta={t('legal.updated')} intro={t('kyc.agree.intro')} sections={sections} />
      <p className="form-foot">
        <Link to="/pages/user/privacyAgreement/privacyAgreement">{t('legal.privacy.title')}</Link>
      </p>
    </Page>
  );
}
