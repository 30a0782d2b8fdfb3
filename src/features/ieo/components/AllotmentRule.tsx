import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';

/** RULES "IEO" in plain words, as protocol/rules/ieo.ts computes it (published on the project's page). */
export function AllotmentRule(): ReactElement {
  const { t } = useTranslation();
  return (
    <section className="card ieo-section ieo-rule" aria-labelledby="ieo-rule-title" data-testid="ieo-rule">
      <h2 className="ieo-section-title" id="ieo-rule-title">
        {t('ieo.rule.title')}
      </h2>
      <ol>
        <li>{t('ieo.rule.within')}</li>
        <li>{t('ieo.rule.proRata')}</li>
        <li>{t('ieo.rule.remainder')}</li>
        <li>{t('ieo.rule.pay')}</li>
        <li>{t('ieo.rule.listing')}</li>
      </ol>
    </section>
  );
}
