import type { Kysely } from 'kysely';
import type { z } from 'zod/mini';
import { type Chain, type ChainCoin, canonicalAddress, isAddressOnChain } from '../../../protocol/chains';
import {
  type addAddressRequest,
  MAX_WITHDRAW_ADDRESSES,
  type WithdrawAddress,
} from '../../../protocol/wallet-addresses';
import { type DatabaseHandle, isUniqueViolation } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import type { AccountServices } from '../account';
import { contactOfUser, sessionUser, verifyFundPassword } from '../account';
import { withWalletAddresses } from './tables';

export interface AddressServices {
  account: AccountServices;
  database: DatabaseHandle;
}

const COLUMNS = ['id', 'coin', 'chain', 'address', 'label', 'created_at'] as const;

/** The user's live addresses (of one coin when given), newest first. Only ever the caller's own rows. */
export function listAddresses(db: Kysely<Database>, userId: number, coin?: ChainCoin): Promise<WithdrawAddress[]> {
  let query = withWalletAddresses(db)
    .selectFrom('withdraw_addresses')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null);
  if (coin) query = query.where('coin', '=', coin);
  return query.orderBy('id', 'desc').execute();
}

async function isSaved(db: Kysely<Database>, userId: number, v: { coin: ChainCoin; chain: Chain; address: string }) {
  const row = await withWalletAddresses(db)
    .selectFrom('withdraw_addresses')
    .select('id')
    .where('user_id', '=', userId)
    .where('coin', '=', v.coin)
    .where('chain', '=', v.chain)
    .where('address', '=', v.address)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Saves a withdrawal address (wallet/addaddress). Order of checks: a fund password must be set, the address must
 * be new and within the per-user limit, then the fund password (counted against its lock) and the `address` code
 * sent to the user's own contact. The code is used up in the same transaction as the insert, so a failure leaves
 * both the code and the list as they were.
 */
export async function addAddress(
  s: AddressServices,
  userId: number,
  input: z.output<typeof addAddressRequest>,
): Promise<WithdrawAddress> {
  const { account, database } = s;
  const user = await sessionUser(database.db, userId);
  if (user.fund_password_hash === null) throw new BusinessError('fundPasswordNotSet', { field: 'fund_password' });
  if (await isSaved(database.db, userId, input)) throw new BusinessError('addressExists', { field: 'address' });
  await assertBelowLimit(database.db, userId);

  await verifyFundPassword(account, user, input.fund_password);
  const contact = contactOfUser(user);
  if (!contact) throw new BusinessError('codeWrong', { field: 'code' });
  const codeId = await account.codes.check(contact, 'address', input.code);

  try {
    return await writeTransaction(database, async (trx) => {
      // Concurrent saves of one user queue here, so the limit holds (SQLite's BEGIN IMMEDIATE already serialises).
      if (database.kind === 'postgres') {
        await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
      }
      await assertBelowLimit(trx, userId);
      await account.codes.consume(trx, codeId);
      return withWalletAddresses(trx)
        .insertInto('withdraw_addresses')
        .values({
          user_id: userId,
          coin: input.coin,
          chain: input.chain,
          address: input.address,
          label: input.label,
          created_at: account.now(),
          deleted_at: null,
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new BusinessError('addressExists', { field: 'address' });
    throw err;
  }
}

async function assertBelowLimit(db: Kysely<Database>, userId: number): Promise<void> {
  const row = await withWalletAddresses(db)
    .selectFrom('withdraw_addresses')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  if (Number(row.n) >= MAX_WITHDRAW_ADDRESSES) throw new BusinessError('addressLimit');
}

/**
 * Deletes one of the user's own addresses (kept as a deleted row). Another user's id, a deleted one and an unknown
 * one all answer the same "not found", so ids reveal nothing.
 */
export async function deleteAddress(s: AddressServices, userId: number, id: number): Promise<void> {
  const result = await withWalletAddresses(s.database.db)
    .updateTable('withdraw_addresses')
    .set({ deleted_at: s.account.now() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new BusinessError('addressNotFound', { field: 'id' });
}

/** wallet/apv_address: is the address valid on the chain, and does the user already keep it? Saves nothing. */
export async function verifyAddress(
  s: AddressServices,
  userId: number,
  input: { coin: ChainCoin; chain: Chain; address: string },
): Promise<{ valid: boolean; saved: boolean }> {
  if (!isAddressOnChain(input.chain, input.address)) return { valid: false, saved: false };
  const address = canonicalAddress(input.chain, input.address);
  return { valid: true, saved: await isSaved(s.database.db, userId, { ...input, address }) };
}
