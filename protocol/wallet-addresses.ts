import { z } from 'zod/mini';
import { call, emptyResponse } from './call-spec';
import {
  CHAIN_COINS,
  CHAINS,
  canonicalAddress,
  chainAddressField,
  chainField,
  checkChainAddress,
  coinField,
  isChainOf,
} from './chains';
import { codeField, fundPasswordField, recordIdField } from './fields';

export { recordIdField };

/** Withdrawal addresses a user may keep at once (deleted ones do not count). */
export const MAX_WITHDRAW_ADDRESSES = 20;
export const ADDRESS_LABEL_MAX = 30;

/** An optional short name for an address ("Ledger", "Exchange"); empty means none. */
const labelField = z.pipe(
  z.optional(z.string().check(z.trim(), z.maxLength(ADDRESS_LABEL_MAX, { error: 'tooLong' }))),
  z.transform((v) => (v ? v : null)),
);

export const withdrawAddress = z.object({
  id: z.number(),
  coin: z.enum(CHAIN_COINS),
  chain: z.enum(CHAINS),
  address: z.string(),
  label: z.nullable(z.string()),
  created_at: z.number(),
});
export type WithdrawAddress = z.infer<typeof withdrawAddress>;

/**
 * wallet/addaddress (SPEC 5 "Create address"): address, the 6-digit fund password and an `address` code sent with
 * sms_other_mail are required; the address must be valid on the chain, which must be one of the coin's. The
 * address comes out in its canonical spelling.
 */
export const addAddressRequest = z.pipe(
  z
    .object({
      coin: coinField,
      chain: chainField,
      address: chainAddressField,
      label: labelField,
      fund_password: fundPasswordField,
      code: codeField,
    })
    .check(z.superRefine(checkChainAddress)),
  z.transform((v) => ({ ...v, address: canonicalAddress(v.chain, v.address) })),
);
export type AddAddressRequest = z.input<typeof addAddressRequest>;

export const delAddressRequest = z.object({ id: recordIdField });

/** wallet/get_address: the user's addresses, of one coin when given, newest first. */
export const getAddressRequest = z.object({ coin: z.optional(coinField) });
export const addressListResponse = z.array(withdrawAddress);

/**
 * wallet/apv_address. SPEC 7 names the call without saying what it does; here it is "address verification":
 * checks an address for a coin and chain without saving anything, for the create form's live feedback. An unknown
 * coin or a chain the coin does not use is an error; a malformed address is `valid: false`. `saved` tells whether
 * the user already keeps this address for this coin and chain.
 */
export const apvAddressRequest = z.object({ coin: coinField, chain: chainField, address: chainAddressField }).check(
  z.superRefine((v, ctx) => {
    if (!isChainOf(v.coin, v.chain)) ctx.addIssue({ code: 'custom', message: 'chainInvalid', path: ['chain'] });
  }),
);
export const apvAddressResponse = z.object({ valid: z.boolean(), saved: z.boolean() });

/** The withdrawal address calls (its domain names them in its contract; server/domains/compose.ts joins every table). */
export const addressCalls = {
  'wallet/get_address': call('POST', true, getAddressRequest, addressListResponse),
  'wallet/addaddress': call('POST', true, addAddressRequest, withdrawAddress),
  'wallet/deladdress': call('POST', true, delAddressRequest, emptyResponse),
  'wallet/apv_address': call('POST', true, apvAddressRequest, apvAddressResponse),
} as const;
