import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { PenaltyRule } from '../../../../../protocol/rules/finance';
import { Page } from '../../../../components/Page';
import { LoadingOrFailed } from '../../../../components/StateView';
import { loadFailed } from '../../../../data/query';
import { formatNumber } from '../../../../lib/format';
import { PenaltyExamples } from '../../components/PenaltyExamples';
import { RiskNote } from '../../components/RiskNote';
import { useFinanceConfig } from '../../hooks/queries';
import '../../finance.css';

/** The rule's steps, in order (RULES.md "Finance"). */
const STEPS = ['products', 'interest', 'maturity', 'reserve', 'apr', 'account'] as const;

/**
 * The finance rules in plain words (finance/rulePage, public): how interest is computed and paid, the reserve behind
 * it, the simple APR, and early redemption with the default rule in force (lh/deposit/config) and SPEC 9's examples.
 */
export default function FinanceRulePage(): ReactElement {
  const { t, i18n } = useTranslation();
  const config = useFinanceConfig('trust');
  return (
    <Page title={t('finance.rule.title')} className="finance-page">
      <section className="card finance-rule-text">
        <h2 className="finance-section-title">{t('finance.rule.howTitle')}</h2>
        <ol>
          {STEPS.map((s) => (
            <li key={s}>{t(`finance.rule.steps.${s}`)}</li>
          ))}
        </ol>
      </section>
      <section className="card finance-rule-text" data-testid="rule-redemption">
        <h2 className="finance-section-title">{t('finance.rule.redemptionTitle')}</h2>
        <p className="finance-flat">{t('finance.rule.redemption')}</p>
        {!config.data ? (
          <LoadingOrFailed failed={loadFailed(config)} onRetry={() => void config.refetch()} />
        ) : (
          <PenaltyExamples rule={config.data.default_penalty as PenaltyRule} />
        )}
        <p className="finance-flat">
          {t('finance.rule.alternative', { multiple: formatNumber('1.5', i18n.language, { min: 0, max: 1 }) })}
        </p>
      </section>
      <RiskNote />
    </Page>
  );
}
