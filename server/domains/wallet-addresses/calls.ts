import type { addressCalls } from '../../../protocol/wallet-addresses';
import { type CallHandlers, requireSession } from '../../platform/http/calls';
import { type AddressServices, addAddress, deleteAddress, listAddresses, verifyAddress } from './addresses';

/** Withdrawal addresses: list, save (fund password + code), delete, and the create form's live check. */
export function walletAddressHandlers(s: AddressServices): CallHandlers<typeof addressCalls> {
  return {
    'wallet/get_address': (input, ctx) => listAddresses(s.database.db, requireSession(ctx).userId, input.coin),
    'wallet/addaddress': (input, ctx) => addAddress(s, requireSession(ctx).userId, input),
    'wallet/deladdress': async (input, ctx) => {
      await deleteAddress(s, requireSession(ctx).userId, input.id);
      return {};
    },
    'wallet/apv_address': (input, ctx) => verifyAddress(s, requireSession(ctx).userId, input),
  };
}
