import { bankCardCalls } from '../../../protocol/bank-cards';
import { defineDomain } from '../contract';
import { bankCardHandlers } from './calls';
import { bankCardsErrors } from './errors';
import { migration0005 } from './migrations/0005_cards_addresses';
import { migration0008 } from './migrations/0008_card_encryption';
import { bankCardOps } from './ops';
import { withBankCards } from './tables';

/** Bound bank cards, sealed under the data key; its `data-key` commands move every domain's sealed values. */
export const bankCardsDomain = defineDomain({
  name: 'bank-cards',
  calls: bankCardCalls,
  errors: bankCardsErrors,
  migrations: [migration0005, migration0008],
  tables: withBankCards,
  ops: ({ sealed }) => bankCardOps(sealed),
  start: (ctx) => ({
    handlers: bankCardHandlers({ database: ctx.database, now: ctx.now, dataKey: ctx.settings.dataKey }),
  }),
});
