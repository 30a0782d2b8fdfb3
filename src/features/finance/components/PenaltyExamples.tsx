import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PENALTY, earlyRedemptionPenalty, type PenaltyRule } from '../../../../protocol/rules/finance';
import { fromUnits } from '../../../../protocol/rules/spot';
import { formatNumber } from '../../../lib/format';
import { formatRate } from '../format';

/** SPEC 9's two examples: 10,000 with 15 days left, 1,000 with 3 days left (in cents, so the cap and rounding show). */
const EXAMPLES = [
  { principal: 1_000_000n, days: 15 },
  { principal: 100_000n, days: 3 },
] as const;
const EXAMPLE_SCALE = 2;

/**
 * The default early-redemption rule in force with SPEC 9's examples, computed by the published rule code at the
 * ratio in force, so the page can never disagree with what an order is charged. A default that is not a ratio is
 * stated as it is, and the examples then use SPEC 9's ratio, saying so.
 */
export function PenaltyExamples({ rule }: { rule: PenaltyRule }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const ratio = rule.kind === 'ratio' ? rule : DEFAULT_PENALTY;
  const num = (units: bigint) => formatNumber(fromUnits(units, EXAMPLE_SCALE), lang, { min: 0, max: EXAMPLE_SCALE });
  return (
    <>
      <p className="finance-flat" data-testid="rule-default">
        {rule.kind === 'ratio'
          ? t('finance.rule.defaultRatio', { rate: formatRate(rule.value, lang) })
          : t('finance.rule.defaultMultiple', { multiple: formatNumber(rule.value, lang, { min: 0, max: 4 }) })}
      </p>
      <p className="finance-flat">{t('finance.rule.examplesAt', { rate: formatRate(ratio.value, lang) })}</p>
      <ul className="finance-examples" data-testid="rule-examples">
        {EXAMPLES.map((e) => (
          <li key={e.days}>
            {t('finance.rule.example', {
              principal: num(e.principal),
              days: e.days,
              penalty: num(
                earlyRedemptionPenalty(e.principal, { dailyRate: '0', cycleDays: e.days, penalty: ratio }, e.days),
              ),
            })}
          </li>
        ))}
      </ul>
    </>
  );
}
