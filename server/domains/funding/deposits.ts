import type { z } from 'zod/mini';
import type { Chain, ChainCoin } from '../../../protocol/chains';
import {
  BANK_DEPOSIT_COIN,
  canonicalHash,
  type chargeRequest,
  type DepositAddress,
  type DepositCurrencies,
  type DepositRecord,
  isHashOnChain,
  isWholeAmount,
} from '../../../protocol/funding';
import { formatAmount, parseAmount } from '../../ledger';
import { isUniqueViolation } from '../../platform/db/connect';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { recordUserEvent } from '../../platform/realtime/user-events';
import { confirmClaimedRequest } from '../../platform/request-ids';
import { sha256 } from '../../platform/security/digest';
import { withBankCards } from '../bank-cards';
import { assertUsableUploads, attachUploads } from '../uploads';
import { depositRows, toDepositRecord } from './records';
import type { FundingServices } from './services';
import { allCoinLimits, bankDetails, coinInfo, coinLimits, platformAddress } from './settings';
import { withFunding } from './tables';

/**
 * Deposits (SPEC 3 "Deposit", 5 "Deposit"): the user sends crypto to the platform's address (or money by bank
 * transfer) and reports it with the hash, a whole amount at or above the coin's minimum and a proof image. The
 * report waits for an operator (server/domains/funding/review.ts); nothing reaches the ledger before approval.
 */

export const DEPOSIT_EVENT_KIND = 'deposit';
/** The tag an attached proof image carries. */
export const depositUploadTag = (id: number) => `deposit:${id}`;

/** wallet/deposit_currency. */
export async function depositCurrencies(s: FundingServices): Promise<DepositCurrencies> {
  const limits = await allCoinLimits(s.database.db);
  const usdt = limits.find((l) => l.coin === BANK_DEPOSIT_COIN);
  return {
    coins: limits.map((l) => ({ ...coinInfo(l.coin), min_deposit: formatAmount(l.coin, l.minDeposit) })),
    bank: {
      coin: BANK_DEPOSIT_COIN,
      min_deposit: formatAmount(BANK_DEPOSIT_COIN, usdt?.minDeposit ?? 0),
      details: await bankDetails(s.database.db),
    },
  };
}

/** wallet/deposit_address: SPEC 8 "The payment address is not configured; contact support" when none is set. */
export async function depositAddress(s: FundingServices, coin: ChainCoin, chain: Chain): Promise<DepositAddress> {
  const address = await platformAddress(s.database.db, coin, chain);
  if (!address) throw new BusinessError('depositAddressMissing');
  const limits = await coinLimits(s.database.db, coin);
  return { coin, chain, address, min_deposit: formatAmount(coin, limits.minDeposit) };
}

async function hashInUse(s: FundingServices, chain: Chain, hash: string): Promise<boolean> {
  const row = await withFunding(s.database.db)
    .selectFrom('deposits')
    .select('id')
    .where('chain', '=', chain)
    .where('hash', '=', canonicalHash(hash))
    .where('state', '<>', 'rejected')
    .executeTakeFirst();
  return row !== undefined;
}

/** wallet/check_address: is this a well-formed hash on the chain, and is it already used by a deposit? */
export async function checkHash(s: FundingServices, chain: Chain, hash: string) {
  const valid = isHashOnChain(chain, hash);
  return { valid, used: valid ? await hashInUse(s, chain, hash) : false };
}

type ChargeInput = z.output<typeof chargeRequest>;

/** A whole amount of `coin` at or above its minimum, in minor units. */
function depositUnits(coin: ChainCoin, text: string, minimum: number): number {
  if (!isWholeAmount(text)) throw new BusinessError('depositAmountInteger', { field: 'amount' });
  const parsed = parseAmount(coin, text);
  if (!parsed.ok) throw new BusinessError(parsed.error, { field: 'amount' });
  if (parsed.units < minimum) {
    throw new BusinessError('depositBelowMin', { field: 'amount', data: { min: formatAmount(coin, minimum) } });
  }
  return parsed.units;
}

/** The request's meaning, so a retry with the same request id is told apart from a reuse with other details. */
const digestOf = (input: ChargeInput, units: number, coin: string) =>
  sha256(
    JSON.stringify([input.method, coin, input.chain ?? null, input.hash ? canonicalHash(input.hash) : null, units]),
  );

/**
 * wallet/charge_req. Checks in order: method details (zod), the platform's address (or bank details), the amount,
 * the bank card, then in one transaction: the request id (a retry returns the first deposit), the hash unused,
 * the proof image the user's own and unattached (attached to the deposit from then on).
 */
export async function submitDeposit(
  s: FundingServices,
  userId: number,
  input: ChargeInput,
): Promise<DepositRecord & { replayed: boolean }> {
  const { db } = s.database;
  const crypto = input.method === 'crypto';
  // zod made sure a crypto deposit has coin, chain and a well-formed hash.
  const coin: ChainCoin = crypto ? (input.coin ?? BANK_DEPOSIT_COIN) : BANK_DEPOSIT_COIN;
  const chain = crypto ? (input.chain ?? null) : null;
  const hash = crypto && input.hash ? canonicalHash(input.hash) : null;
  const address = chain ? await platformAddress(db, coin, chain) : await bankDetails(db);
  if (!address) throw new BusinessError('depositAddressMissing');
  const units = depositUnits(coin, input.amount, (await coinLimits(db, coin)).minDeposit);
  let cardId: number | null = null;
  if (!crypto) {
    const card = await withBankCards(db)
      .selectFrom('bank_cards')
      .select('id')
      .where('id', '=', input.bank_card_id ?? 0)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!card) throw new BusinessError('bankCardNotFound', { field: 'bank_card_id' });
    cardId = card.id;
  }
  const digest = digestOf(input, units, coin);
  const at = s.now();
  try {
    return await writeTransaction(s.database, async (trx) => {
      const earlier = await depositRows(trx)
        .where('d.user_id', '=', userId)
        .where('d.request_id', '=', input.request_id)
        .executeTakeFirst();
      if (earlier) {
        if (earlier.request_digest !== digest) throw new BusinessError('requestIdReused');
        return { ...toDepositRecord(earlier), replayed: true };
      }
      if (chain && hash) {
        const used = await withFunding(trx)
          .selectFrom('deposits')
          .select('id')
          .where('chain', '=', chain)
          .where('hash', '=', hash)
          .where('state', '<>', 'rejected')
          .executeTakeFirst();
        if (used) throw new BusinessError('depositHashUsed', { field: 'hash' });
      }
      await assertUsableUploads(trx, userId, { proof: input.proof });
      // With the effect: a success always leaves its request-id claim confirmed (platform/request-ids).
      await confirmClaimedRequest(trx, userId);
      const row = await withFunding(trx)
        .insertInto('deposits')
        .values({
          user_id: userId,
          method: input.method,
          coin,
          chain,
          address: crypto ? address : null,
          hash,
          bank_card_id: cardId,
          amount: units,
          proof_upload_id: input.proof,
          request_id: input.request_id,
          request_digest: digest,
          state: 'pending',
          reason: null,
          entry_id: null,
          created_at: at,
          reviewed_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await attachUploads(trx, userId, { proof: input.proof }, depositUploadTag(row.id));
      await recordUserEvent(trx, {
        userId,
        kind: DEPOSIT_EVENT_KIND,
        data: { id: row.id, state: 'pending', reason: null },
        at,
      });
      const saved = await depositRows(trx).where('d.id', '=', row.id).executeTakeFirstOrThrow();
      return { ...toDepositRecord(saved), replayed: false };
    });
  } catch (err) {
    // PostgreSQL: two reports of one hash at once; the unique index lets one through.
    if (isUniqueViolation(err)) {
      const sameRequest = await withFunding(db)
        .selectFrom('deposits')
        .select('id')
        .where('user_id', '=', userId)
        .where('request_id', '=', input.request_id)
        .executeTakeFirst();
      if (sameRequest) return submitDeposit(s, userId, input);
      throw new BusinessError('depositHashUsed', { field: 'hash' });
    }
    throw err;
  }
}
