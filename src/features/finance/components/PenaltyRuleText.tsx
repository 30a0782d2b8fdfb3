import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { PenaltyRule } from '../../../../protocol/rules/finance';
import { formatNumber } from '../../../lib/format';
import { formatRate } from '../format';

/**
 * An early-redemption rule in words with its number (RULES.md "Finance"): a ratio of the principal per remaining day
 * (SPEC 9's default 0.4%), or a multiple of one day's interest per remaining day. `perDay` adds what one remaining
 * day costs for a given principal, already formatted with its currency.
 */
export function PenaltyRuleText({ rule, perDay }: { rule: PenaltyRule; perDay?: string | undefined }): ReactElement {
  const { t, i18n } = useTranslation();
  const text =
    rule.kind === 'ratio'
      ? t('finance.penalty.ratio', { rate: formatRate(rule.value, i18n.language) })
      : t('finance.penalty.multiple', { multiple: formatNumber(rule.value, i18n.language, { min: 0, max: 4 }) });
  return (
    <p className="finance-flat" data-testid="penalty-rule">
      {text} {perDay ? t('finance.penalty.perDay', { amount: perDay }) : null} {t('finance.penalty.cap')}
    </p>
  );
}
