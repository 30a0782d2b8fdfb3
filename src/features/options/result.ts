import type { TFunction } from 'i18next';
import type { OptionContract } from '../../../protocol/options';
import type { OptionResult } from '../../../protocol/rules/options';
import { fromUnits, toUnits } from '../../../protocol/rules/spot';
import { formatMoney } from '../../lib/format';

const RESULTS: readonly OptionContract['state'][] = ['won', 'lost', 'flat', 'refunded'] satisfies OptionResult[];
const isResult = (state: OptionContract['state']): state is OptionResult => RESULTS.includes(state);

/**
 * What a contract made or lost for its owner, as exact decimal text: what the settlement paid back less the stake, so
 * a lost 12 USDT contract is -12, not the 0 it paid back, and a cancelled one (its stake released) is 0. The
 * difference is taken at the wider of the two figures' decimals, which is exact whatever the currency's scale; the
 * payout itself is what the re-check proves from the record. Null while the contract is open.
 */
export function contractProfit(c: OptionContract): string | null {
  if (c.payout === null || !(isResult(c.state) || c.state === 'cancelled')) return null;
  const decimals = (text: string) => text.split('.')[1]?.length ?? 0;
  const scale = Math.max(decimals(c.payout), decimals(c.stake));
  const payout = toUnits(c.payout, scale);
  const stake = toUnits(c.stake, scale);
  if (payout === null || stake === null) return null;
  return fromUnits(payout - stake, scale);
}

/**
 * The result as a trader reads it: signed with its unit ('+9.60 USDT', '-12.00 USDT'), and a result of nothing says
 * why ('0.00 USDT (flat)'). Two decimals cut toward zero in lists and on the ticket, every decimal on the detail page
 * (`exact`). Null while the contract is open.
 */
export function contractResultText(c: OptionContract, t: TFunction, lang: string, exact = false): string | null {
  const profit = contractProfit(c);
  if (profit === null) return null;
  const amount = formatMoney(profit, c.currency, lang, { signed: true, exact });
  return c.state === 'flat' || c.state === 'refunded' || c.state === 'cancelled'
    ? t(`options.result.${c.state}`, { amount })
    : amount;
}

/** The colour class of a result: gain, loss, or none for a result of nothing. */
export function resultClass(c: OptionContract): string {
  const state = c.state;
  return state === 'won' ? 'option-gain' : state === 'lost' ? 'option-loss' : '';
}
