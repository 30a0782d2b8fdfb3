import type { TFunction } from 'i18next';
import type { OptionContract } from '../../../protocol/options';
import { type OptionResult, optionProfit } from '../../../protocol/rules/options';
import { fromUnits, toUnits } from '../../../protocol/rules/spot';
import { formatMoney } from '../../lib/format';

const RESULTS: readonly OptionContract['state'][] = ['won', 'lost', 'flat', 'refunded'] satisfies OptionResult[];
const isResult = (state: OptionContract['state']): state is OptionResult => RESULTS.includes(state);

/**
 * What a contract made or lost for its owner, as exact decimal text of its currency: the rule the server settles
 * with (optionProfit), so a lost 12 USDT contract is -12, not the 0 it paid back. A cancelled contract had its stake
 * released: 0. Null while it is open, or when its stake is not an amount of its currency.
 */
export function contractProfit(c: OptionContract): string | null {
  // The server sends every amount with all of its currency's decimals: the stake's are the currency's scale.
  const scale = c.stake.split('.')[1]?.length ?? 0;
  const stake = toUnits(c.stake, scale);
  if (stake === null) return null;
  if (c.state === 'cancelled') return fromUnits(0n, scale);
  if (!isResult(c.state)) return null;
  return fromUnits(optionProfit(stake, c.ratio, c.state, scale), scale);
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
