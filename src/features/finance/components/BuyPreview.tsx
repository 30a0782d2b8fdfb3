import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { FinanceProduct } from '../../../../protocol/finance';
import { earlyRedemptionPenalty } from '../../../../protocol/rules/finance';
import { formatUnits, formatUtc } from '../format';
import { cycleDates, termsOf, yieldPreview } from '../terms';
import { PenaltyRuleText } from './PenaltyRuleText';

/**
 * What the typed principal would be paid, computed exactly as the server will (dailyInterest, promisedYield), and
 * when: interest from 00:00 UTC after the purchase, the principal back with the last day's interest. `units` is
 * null while the amount is not a number of the currency.
 */
export function BuyPreview({
  product,
  units,
  now,
}: {
  product: FinanceProduct;
  units: bigint | null;
  /** Server time of the purchase, as far as the page knows it. */
  now: number;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const terms = termsOf(product);
  const figures = units !== null && units > 0n ? yieldPreview(units, terms) : null;
  const money = (u: bigint) => `${formatUnits(u, lang, product.scale)} ${product.currency}`;
  const { start, completion } = cycleDates(now, product.cycle_days);
  const perDay = figures && units !== null ? money(earlyRedemptionPenalty(units, terms, 1)) : undefined;
  return (
    <section className="card finance-preview" aria-live="polite" data-testid="finance-preview">
      <dl className="kv finance-kv">
        <dt>{t('finance.buy.daily')}</dt>
        <dd data-testid="preview-daily">{figures ? money(figures.daily) : '–'}</dd>
        <dt>{t('finance.buy.total')}</dt>
        <dd data-testid="preview-total">{figures ? money(figures.total) : '–'}</dd>
        <dt>{t('finance.buy.start')}</dt>
        <dd>{t('finance.utc', { time: formatUtc(start, lang) })}</dd>
        <dt>{t('finance.buy.completion')}</dt>
        <dd>{t('finance.utc', { time: formatUtc(completion, lang) })}</dd>
      </dl>
      <p className="muted finance-flat">{t('finance.buy.schedule')}</p>
      <h3 className="finance-subtitle">{t('finance.buy.redemptionTitle')}</h3>
      <PenaltyRuleText rule={terms.penalty} perDay={perDay} />
    </section>
  );
}
