import { type Kysely, sql } from 'kysely';
import type { z } from 'zod/mini';
import type { Chain, ChainCoin } from '../../../protocol/chains';
import {
  WITHDRAWAL_WINDOW_MS,
  WITHDRAWALS_PER_DAY,
  type WithdrawalRecord,
  type WithdrawInfo,
  type withdrawRequest,
} from '../../../protocol/funding';
import { formatAmount, ledgerEdge, parseAmount } from '../../ledger';
import type { Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { recordUserEvent } from '../../platform/realtime/user-events';
import { confirmClaimedRequest } from '../../platform/request-ids';
import { sha256 } from '../../platform/security/digest';
import { sessionUser, verifyFundPassword } from '../account';
import { verificationState } from '../identity';
import { withWalletAddresses } from '../wallet-addresses';
import { toWithdrawalRecord } from './records';
import { FUNDING_FIELDS, type FundingServices } from './services';
import { allCoinLimits, coinInfo, coinLimits } from './settings';
import { withFunding } from './tables';

/**
 * Withdrawals (SPEC 3 "Withdraw", 5, 6, 9): to one of the user's saved addresses, with the fund password, after
 * basic real-name verification; at or above the coin's minimum; at most WITHDRAWALS_PER_DAY requests in any 24
 * hours. Amount plus fee is frozen by a ledger hold until an operator approves (the hold is paid out) or rejects
 * (the hold is released).
 *
 * The hold and the withdrawal row are two transactions (the ledger runs its own): the hold comes first, under a
 * request id derived from the client's (`wd:<request_id>`), then the row. A retry with the same request id gets
 * the same hold back from the ledger and finds or writes the row, so a crash in between is repaired by the
 * client's retry. The daily limit is checked twice: cheaply before the hold (so the ordinary fourth request never
 * touches the ledger) and again under a per-user lock when the row is written (so simultaneous requests cannot
 * pass it together); a request refused at that second check releases its hold at once.
 */

export const WITHDRAWAL_EVENT_KIND = 'withdrawal';
const BOOK = 'real';
const ACCOUNT = 'coin';

export const holdRequestId = (requestId: string) => `wd:${requestId}`;

/** wallet/withdrawal_currency. */
export async function withdrawalCurrencies(s: FundingServices) {
  const limits = await allCoinLimits(s.database.db);
  return limits.map((l) => ({
    ...coinInfo(l.coin),
    min_withdraw: formatAmount(l.coin, l.minWithdraw),
    withdraw_fee: formatAmount(l.coin, l.withdrawFee),
  }));
}

async function requestsInWindow(db: Kysely<Database>, userId: number, now: number): Promise<number> {
  const row = await withFunding(db)
    .selectFrom('withdrawals')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('created_at', '>', now - WITHDRAWAL_WINDOW_MS)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function availableOf(s: FundingServices, userId: number, coin: ChainCoin): Promise<number> {
  const rows = await s.ledger.balances(userId, BOOK);
  return rows.find((r) => r.type === ACCOUNT && r.currency === coin)?.available ?? 0;
}

/** Whether the user keeps an address for the coin (on `chain` when given). */
async function hasAddress(db: Kysely<Database>, userId: number, coin: ChainCoin, chain?: Chain): Promise<boolean> {
  const row = await withWalletAddresses(db)
    .selectFrom('withdraw_addresses')
    .select('id')
    .where('user_id', '=', userId)
    .where('coin', '=', coin)
    .$if(chain !== undefined, (qb) => qb.where('chain', '=', chain ?? 'ERC20'))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** wallet/get_info: fee, minimum, available balance, requests left and SPEC 6's three prerequisites. */
export async function withdrawInfo(s: FundingServices, userId: number, coin: ChainCoin): Promise<WithdrawInfo> {
  const { db } = s.database;
  const limits = await coinLimits(db, coin);
  const user = await sessionUser(db, userId);
  const used = await requestsInWindow(db, userId, s.now());
  const info = coinInfo(coin);
  return {
    coin,
    chains: info.chains,
    scale: info.scale,
    min_withdraw: formatAmount(coin, limits.minWithdraw),
    withdraw_fee: formatAmount(coin, limits.withdrawFee),
    available: formatAmount(coin, await availableOf(s, userId, coin)),
    requests_left: Math.max(0, WITHDRAWALS_PER_DAY - used),
    requests_per_day: WITHDRAWALS_PER_DAY,
    has_address: await hasAddress(db, userId, coin),
    has_fund_password: user.fund_password_hash !== null,
    verified: (await verificationState(db, userId, 'basic')) === 'verified',
  };
}

type WithdrawInput = z.output<typeof withdrawRequest>;

/** Takes the per-user lock the row check runs under (PostgreSQL; SQLite's BEGIN IMMEDIATE already serialises). */
async function lockUser(trx: Kysely<Database>, kind: 'sqlite' | 'postgres', userId: number): Promise<void> {
  if (kind === 'postgres') await sql`select id from users where id = ${userId} for update`.execute(trx);
}

/**
 * wallet/out. Checks in SPEC 8's order: an address (`withdrawAddressFirst`), a fund password
 * (`fundPasswordNotSet`), basic verification (`realNameFirst`), the fund password itself, the amount and minimum,
 * the daily limit, then the balance (the ledger's hold).
 */
export async function withdraw(
  s: FundingServices,
  userId: number,
  input: WithdrawInput,
): Promise<WithdrawalRecord & { replayed: boolean }> {
  const { db, kind } = s.database;
  const { coin, chain } = input;
  const earlier = await withFunding(db)
    .selectFrom('withdrawals')
    .selectAll()
    .where('user_id', '=', userId)
    .where('request_id', '=', input.request_id)
    .executeTakeFirst();

  const address = input.address_id
    ? await withWalletAddresses(db)
        .selectFrom('withdraw_addresses')
        .select(['id', 'address'])
        .where('id', '=', input.address_id)
        .where('user_id', '=', userId)
        .where('coin', '=', coin)
        .where('chain', '=', chain)
        .where('deleted_at', 'is', null)
        .executeTakeFirst()
    : undefined;
  if (!address && !earlier) {
    if (!(await hasAddress(db, userId, coin, chain)))
      throw new BusinessError('withdrawAddressFirst', { field: 'address_id' });
    throw new BusinessError('addressNotFound', { field: 'address_id' });
  }
  const user = await sessionUser(db, userId);
  if (user.fund_password_hash === null) throw new BusinessError('fundPasswordNotSet', { field: 'fund_password' });
  if ((await verificationState(db, userId, 'basic')) !== 'verified') throw new BusinessError('realNameFirst');
  await verifyFundPassword(s.account, user, input.fund_password);

  const parsed = parseAmount(coin, input.amount);
  if (!parsed.ok) throw new BusinessError(parsed.error, { field: 'amount' });
  const limits = await coinLimits(db, coin);
  const amount = parsed.units;
  const digest = sha256(JSON.stringify([coin, chain, input.address_id ?? null, amount, input.remark]));
  if (earlier) {
    if (earlier.request_digest !== digest) throw new BusinessError('requestIdReused');
    return { ...toWithdrawalRecord(earlier), replayed: true };
  }
  if (!address) throw new BusinessError('addressNotFound', { field: 'address_id' });
  if (amount < limits.minWithdraw) {
    throw new BusinessError('withdrawBelowMin', {
      field: 'amount',
      data: { min: formatAmount(coin, limits.minWithdraw) },
    });
  }
  const fee = limits.withdrawFee;
  if (!Number.isSafeInteger(amount + fee)) throw new BusinessError('amountTooLarge', { field: 'amount' });
  if ((await requestsInWindow(db, userId, s.now())) >= WITHDRAWALS_PER_DAY) {
    throw new BusinessError('withdrawDailyLimit');
  }

  // The hold and the withdrawal row commit together (ledger.within): a crash between them leaves neither.
  const ledgerRequestId = holdRequestId(input.request_id);
  const at = s.now();
  const outcome = await writeTransaction(s.database, async (trx) => {
    await lockUser(trx, kind, userId);
    const same = await withFunding(trx)
      .selectFrom('withdrawals')
      .selectAll()
      .where('user_id', '=', userId)
      .where('request_id', '=', input.request_id)
      .executeTakeFirst();
    if (same) return { kind: 'replayed' as const, row: same };
    if ((await requestsInWindow(trx, userId, at)) >= WITHDRAWALS_PER_DAY) return { kind: 'limit' as const };
    const receipt = await ledgerEdge(
      () =>
        s.ledger.within(trx).placeHold({
          userId,
          requestId: ledgerRequestId,
          kind: 'withdrawal',
          book: BOOK,
          currency: coin,
          type: ACCOUNT,
          amount: amount + fee,
          ref: ledgerRequestId,
          memo: `withdrawal ${coin} ${chain}`,
        }),
      FUNDING_FIELDS,
    );
    const holdId = receipt.holdId;
    if (holdId === null) throw new Error('placeHold returned no hold');
    // With the effect: a success always leaves its request-id claim confirmed (platform/request-ids).
    await confirmClaimedRequest(trx, userId);
    const row = await withFunding(trx)
      .insertInto('withdrawals')
      .values({
        user_id: userId,
        coin,
        chain,
        address_id: address.id,
        address: address.address,
        amount,
        fee,
        remark: input.remark,
        request_id: input.request_id,
        request_digest: digest,
        hold_id: holdId,
        state: 'pending',
        reason: null,
        created_at: at,
        reviewed_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordUserEvent(trx, {
      userId,
      kind: WITHDRAWAL_EVENT_KIND,
      data: { id: row.id, state: 'pending', reason: null },
      at,
    });
    return { kind: 'created' as const, row };
  });
  switch (outcome.kind) {
    case 'created':
      return { ...toWithdrawalRecord(outcome.row), replayed: false };
    case 'replayed':
      return { ...toWithdrawalRecord(outcome.row), replayed: true };
    case 'limit':
      throw new BusinessError('withdrawDailyLimit');
  }
}
