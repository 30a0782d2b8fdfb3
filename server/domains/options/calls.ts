import type { optionCalls } from '../../../protocol/options';
import { BusinessError } from '../../platform/errors';
import { type CallHandlers, requireSession } from '../../platform/http/calls';
import { practiceBalance, resetPractice } from '../../trading';
import { contractOf, listContracts, toWire } from './contracts';
import { type OptionServices, submitOption } from './submit';
import { optionSeconds, readOptionSettings } from './terms';

const DEFAULT_LIMIT = 20;

/**
 * Option calls. Every call acts for the session user only: a contract id is looked up among the user's own
 * contracts, so another user's contract does not exist for them. No call (and no operator command) sets a result.
 */
export function optionHandlers(s: OptionServices): CallHandlers<typeof optionCalls> {
  const db = s.database.db;
  return {
    'microtrade/payable_currencies': async () => ({
      currencies: [...(await readOptionSettings(db)).payableCurrencies],
    }),
    'microtrade/seconds': (input) => optionSeconds(db, input.currency),
    'microtrade/submit': (input, ctx) => submitOption(s, requireSession(ctx).userId, input),
    'microtrade/lists': (input, ctx) =>
      listContracts(db, requireSession(ctx).userId, {
        list: input.list,
        book: input.account,
        limit: input.limit ?? DEFAULT_LIMIT,
        beforeId: input.before_id,
      }),
    'microtrade/info': async (input, ctx) => {
      const row = await contractOf(db, requireSession(ctx).userId, input.id);
      if (!row) throw new BusinessError('orderNotFound', { field: 'id' });
      return toWire(row);
    },
    'microtrade/simulator': (_input, ctx) => practiceBalance(s.ledger, requireSession(ctx).userId, 'option'),
    'microtrade/simulator/reset': (_input, ctx) =>
      resetPractice(s.database, s.ledger, requireSession(ctx).userId, 'option', s.now),
  };
}
