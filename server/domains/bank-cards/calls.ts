import { type CallHandlers, requireSession } from '../../platform/http/calls';
import { type BankCardServices, deleteCard, listCards, saveCard } from './cards';

type BankCardPath = 'user/cash_save' | 'user/cash_info' | 'user/cash_delete';

/** Bound bank cards: bind or edit, list (masked), unbind. */
export function bankCardHandlers(s: BankCardServices): Pick<CallHandlers, BankCardPath> {
  return {
    'user/cash_save': (input, ctx) => saveCard(s, requireSession(ctx).userId, input),
    'user/cash_info': (_input, ctx) => listCards(s.database.db, requireSession(ctx).userId),
    'user/cash_delete': async (input, ctx) => {
      await deleteCard(s, requireSession(ctx).userId, input.id);
      return {};
    },
  };
}
