import type { walletCalls } from '../../../protocol/wallet';
import { DEFAULT_PAGE } from '../../../protocol/wallet';
import { type CallHandlers, requireSession } from '../../platform/http/calls';
import { assetDetail, ledgerLog, listAssets, transfer, transferHistory, type WalletServices } from './service';

/**
 * Assets and transfers between account types. Every call reads or moves only the session user's own accounts: no
 * request field names a user, and record ids only page through the user's own rows.
 */
export function walletHandlers(s: WalletServices): CallHandlers<typeof walletCalls> {
  return {
    'wallet/list': (input, ctx) => listAssets(s, requireSession(ctx).userId, input.type),
    'wallet/detail': (input, ctx) => assetDetail(s, requireSession(ctx).userId, input.currency, input.type),
    'wallet/legal_log': (input, ctx) =>
      ledgerLog(s, requireSession(ctx).userId, {
        limit: input.limit ?? DEFAULT_PAGE,
        beforeId: input.before_id,
        type: input.type,
        currency: input.currency,
      }),
    'wallet/change': (input, ctx) => transfer(s, requireSession(ctx).userId, input),
    'wallet/hzhistory': (input, ctx) =>
      transferHistory(s, requireSession(ctx).userId, { limit: input.limit ?? DEFAULT_PAGE, beforeId: input.before_id }),
  };
}
