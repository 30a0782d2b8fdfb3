import type { ContractDraft } from '../../../machines/options/contract.machine';
import type { OptionAccount, OptionCurrencyTerms, OptionDirection } from '../../../protocol/options';
import { stakeAtLeastMin, stakeUnits } from '../../../protocol/rules/options';
import { toUnits } from '../../../protocol/rules/spot';

/** What the ticket holds before it is sent: a period (or none yet) and the stake as wire text. */
export interface OptionTicket {
  seconds: number | null;
  stake: string;
}

/** A problem found before sending: an `errors` key and the field it is about. */
export interface TicketProblem {
  key: string;
  field: 'seconds' | 'stake';
  values?: Record<string, string>;
}

/**
 * SPEC 5 "Option", in its order, as far as the client can tell: a period picked, a stake given, plain decimal text on
 * the currency's step, at least the period's minimum, within the available balance of the chosen book. The server
 * checks the same again, and the identity (SPEC 8) after them.
 */
export function ticketProblem(
  ticket: OptionTicket,
  terms: OptionCurrencyTerms,
  available: string | null,
): TicketProblem | null {
  const period = terms.periods.find((p) => p.seconds === ticket.seconds);
  if (ticket.seconds === null || !period) return { key: 'optionPeriodRequired', field: 'seconds' };
  if (ticket.stake === '') return { key: 'optionStakeRequired', field: 'stake' };
  const stake = stakeUnits(ticket.stake, terms.scale);
  if (stake === null || stake <= 0n) return { key: 'optionStakeInvalid', field: 'stake' };
  if (!stakeAtLeastMin(stake, period.min_stake, terms.scale)) {
    return { key: 'optionStakeBelowMin', field: 'stake', values: { min: period.min_stake } };
  }
  const balance = available === null ? null : toUnits(available, terms.scale);
  if (balance !== null && stake > balance) return { key: 'insufficientBalance', field: 'stake' };
  return null;
}

export function draftOf(
  ticket: OptionTicket,
  symbol: string,
  direction: OptionDirection,
  account: OptionAccount,
  currency: string,
): ContractDraft {
  return { symbol, direction, seconds: String(ticket.seconds ?? ''), stake: ticket.stake, currency, account };
}
