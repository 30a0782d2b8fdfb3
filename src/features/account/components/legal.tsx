import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { LegalDoc, type LegalSection } from '../../../components/LegalDoc';
import { Page } from '../../../components/Page';

export type LegalDocKey = 'terms' | 'privacy' | 'consent';

function asSections(v: unknown): LegalSection[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((s: unknown) => {
    if (!s || typeof s !== 'object' || !('h' in s) || !('p' in s)) return [];
    const { h, p } = s;
    if (typeof h !== 'string' || !Array.isArray(p)) return [];
    return [{ h, p: p.filter((x: unknown): x is string => typeof x === 'string') }];
  });
}

/**
 * One of the legal texts as a page: its title from the shell's `legal.<doc>` (other pages link to it by name), its text
 * from this feature's `legalText.<doc>`, so the long texts load only with these pages, not on every route.
 */
export function LegalPage({ doc }: { doc: LegalDocKey }): ReactElement {
  const { t } = useTranslation();
  const sections = asSections(t(`legalText.${doc}.sections`, { returnObjects: true }));
  return (
    <Page title={t(`legal.${doc}.title`)}>
      <LegalDoc meta={t('legal.updated')} intro={t(`legalText.${doc}.intro`)} sections={sections} />
    </Page>
  );
}
