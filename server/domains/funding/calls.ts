import type { fundingCalls } from '../../../protocol/funding';
import { type CallHandlers, requireSession } from '../../platform/http/calls';
import { checkHash, depositAddress, depositCurrencies, submitDeposit } from './deposits';
import { depositLog, withdrawalLog } from './records';
import type { FundingServices } from './services';
import { withdraw, withdrawalCurrencies, withdrawInfo } from './withdrawals';

const DEFAULT_LIMIT = 20;

/**
 * Deposits, withdrawals and their records. Every call acts for the session user only: no field names a user, and
 * record ids (a bank card, an address, an upload, a record) are looked up among the user's own rows.
 */
export function fundingHandlers(s: FundingServices): CallHandlers<typeof fundingCalls> {
  return {
    'wallet/deposit_currency': () => depositCurrencies(s),
    'wallet/deposit_address': (input) => depositAddress(s, input.coin, input.chain),
    'wallet/check_address': (input) => checkHash(s, input.chain, input.hash),
    'wallet/charge_req': (input, ctx) => submitDeposit(s, requireSession(ctx).userId, input),
    'wallet/withdrawal_currency': () => withdrawalCurrencies(s),
    'wallet/get_info': (input, ctx) => withdrawInfo(s, requireSession(ctx).userId, input.coin),
    'wallet/out': (input, ctx) => withdraw(s, requireSession(ctx).userId, input),
    'charge_mention/log2': (input, ctx) =>
      depositLog(s.database.db, requireSession(ctx).userId, {
        limit: input.limit ?? DEFAULT_LIMIT,
        beforeId: input.before_id,
        id: input.id,
        state: input.state,
      }),
    'charge_mention/log3': (input, ctx) =>
      withdrawalLog(s.database.db, requireSession(ctx).userId, {
        limit: input.limit ?? DEFAULT_LIMIT,
        beforeId: input.before_id,
        id: input.id,
        state: input.state,
      }),
  };
}
