import type { bankCardCalls } from '../../../protocol/bank-cards';
import type { DatabaseHandle } from '../../platform/db/connect';
import { type CallHandlers, requireSession } from '../../platform/http/calls';
import { type BankCardServices, deleteCard, listCards, saveCard } from './cards';
import { ephemeralDataKey } from './data-key';
import { CardVault } from './vault';

export interface BankCardOptions {
  database: DatabaseHandle;
  now: () => number;
  /** The data key (DATA_KEY or DATA_DIR/data.key); without one, a random key of this process (tests). */
  dataKey?: Uint8Array | undefined;
}

/** Bound bank cards: bind or edit, list (masked), unbind. */
export function bankCardHandlers(options: BankCardOptions): CallHandlers<typeof bankCardCalls> {
  const s: BankCardServices = {
    database: options.database,
    now: options.now,
    vault: new CardVault(options.dataKey ?? ephemeralDataKey()),
  };
  return {
    'user/cash_save': (input, ctx) => saveCard(s, requireSession(ctx).userId, input),
    'user/cash_info': (_input, ctx) => listCards(s, requireSession(ctx).userId),
    'user/cash_delete': async (input, ctx) => {
      await deleteCard(s, requireSession(ctx).userId, input.id);
      return {};
    },
  };
}
