import { type Kysely, sql } from 'kysely';
import type { EntryKind } from '../../protocol/wallet';
import type { DatabaseHandle, DialectKind } from '../platform/db/connect';
import type { Database } from '../platform/db/schema';
import { writeTransaction } from '../platform/db/transaction';
import { sha256 } from '../platform/security/digest';
import {
  AccountDirectory,
  type AccountKey,
  type AccountOwner,
  isUserAccountType,
  type LedgerAccountType,
  type LedgerBook,
  type LockedAccount,
  lockAccounts,
  NON_NEGATIVE_PLATFORM_ACCOUNTS,
  type PlatformAccountType,
  type UserAccountType,
} from './accounts';
import { checkUnits, isCurrency } from './amounts';
import { addCurrency } from './currencies';
import { LedgerError } from './errors';
import type { LedgerHoldKind, LedgerHoldState } from './tables';
import { withLedger } from './tables';

/** What an entry records (the list is part of the protocol: history rows carry it). */
export { ENTRY_KINDS, type EntryKind } from '../../protocol/wallet';

/** The outcome of an applied request; a retry with the same request id gets the same receipt back. */
export interface Receipt {
  entryId: number;
  /** The hold this request placed (placeHold), else null. */
  holdId: number | null;
  createdAt: number;
  /** True when the request id had been applied before and this call changed nothing. */
  replayed: boolean;
}

interface RequestBase {
  /** The user the request is for; request ids are unique per user. */
  userId: number;
  /** The client's id for this request (1 to 64 printable ASCII characters). */
  requestId: string;
  /** Free text kept with the entry (e.g. a withdrawal number); part of the request body. */
  memo?: string;
}

export interface TransferRequest extends RequestBase {
  book?: LedgerBook;
  currency: string;
  amount: number;
  from: UserAccountType;
  to: UserAccountType;
}

/** Platform account to user account, e.g. an approved deposit (deposits_clearing to coin). */
export interface CreditRequest extends RequestBase {
  kind: EntryKind;
  book?: LedgerBook;
  currency: string;
  amount: number;
  from: PlatformAccountType;
  to: UserAccountType;
}

/** User account to platform account, e.g. an early-redemption penalty (trust to penalties). */
export interface DebitRequest extends RequestBase {
  kind: EntryKind;
  book?: LedgerBook;
  currency: string;
  amount: number;
  from: UserAccountType;
  to: PlatformAccountType;
}

/** One signed line of a multi-line entry. */
export interface Leg {
  owner: AccountOwner;
  currency: string;
  amount: number;
}

/** Any balanced set of postings (settlements with fees, trades across currencies); legs sum to zero per currency. */
export interface EntryRequest extends RequestBase {
  kind: EntryKind;
  book?: LedgerBook;
  legs: readonly Leg[];
}

export interface PlaceHoldRequest extends RequestBase {
  kind: LedgerHoldKind;
  book?: LedgerBook;
  currency: string;
  type: UserAccountType;
  amount: number;
  /** What the hold is for, in the caller's terms (a withdrawal number, an order number). */
  ref?: string;
}

/**
 * Resolves an open hold by paying it out: each destination (same book and currency as the hold) receives its
 * amount from the held account. Together they may be less than the hold (an order filled for less); the rest is
 * simply released.
 */
export interface PostHoldRequest extends RequestBase {
  holdId: number;
  to: ReadonlyArray<{ owner: AccountOwner; amount: number }>;
}

export interface VoidHoldRequest extends RequestBase {
  holdId: number;
}

export interface BalanceRow {
  book: LedgerBook;
  type: LedgerAccountType;
  currency: string;
  balance: number;
  held: number;
  /** balance - held: what the user can spend or move. */
  available: number;
}

export interface HistoryRow {
  postingId: number;
  entryId: number;
  kind: string;
  book: LedgerBook;
  type: LedgerAccountType;
  currency: string;
  /** Signed minor units. */
  amount: number;
  requestId: string;
  memo: string | null;
  createdAt: number;
}

export interface HoldRow {
  id: number;
  kind: LedgerHoldKind;
  ref: string | null;
  book: LedgerBook;
  type: LedgerAccountType;
  currency: string;
  amount: number;
  state: LedgerHoldState;
  createdAt: number;
  resolvedAt: number | null;
}

/**
 * One request of a batch (`settleBatch`): exactly what `postHold`, `voidHold` or `post` takes, tagged with which.
 * `credit`, `debit` and `transfer` are `post` with their two legs (from, then to): their entries are recorded the
 * same way, so the same request id replays across both forms.
 */
export type BatchRequest =
  | ({ op: 'postHold' } & PostHoldRequest)
  | ({ op: 'voidHold' } & VoidHoldRequest)
  | ({ op: 'post' } & EntryRequest);

/** A change to one locked account: `amount` is posted to its balance, `held` moves its frozen part. */
interface Movement {
  accountId: number;
  amount: number;
  held: number;
}

const REQUEST_ID_RE = /^[\x21-\x7e]{1,64}$/;
const MEMO_MAX = 200;

/**
 * The double-entry ledger (DESIGN "The ledger"). Every method that changes money is one write transaction that
 * records an entry (the request, unique per user and request id) and its postings, and moves the account
 * balances with them; it either applies whole or not at all. Amounts are minor units (see amounts.ts).
 * Refusals the user can act on are thrown as LedgerError; anything else thrown is a bug.
 */
export class Ledger {
  private readonly db: Kysely<Database>;
  private readonly kind: DialectKind;
  private readonly accounts: AccountDirectory;

  constructor(
    private readonly handle: DatabaseHandle,
    private readonly now: () => number = Date.now,
    /** Set by `within`: the caller's open write transaction, which every change of this instance joins. */
    private readonly bound?: Kysely<Database>,
  ) {
    this.db = bound ?? handle.db;
    this.kind = handle.kind;
    this.accounts = new AccountDirectory(this.db, now);
  }

  /**
   * This ledger inside the caller's write transaction (opened with `writeTransaction`): a product's state change and
   * its postings commit together or not at all. Its changes neither open nor commit a transaction of their own; a
   * refusal (LedgerError) leaves the caller to roll back. Accounts are then created inside that transaction too.
   */
  within(trx: Kysely<Database>): Ledger {
    return new Ledger(this.handle, this.now, trx);
  }

  /**
   * Makes `symbol` a currency of `scale` decimals (a coin listed at run time: 8) in the ledger's own table and in this
   * process; other processes load it within a few seconds (currencies.ts). Called `within` the listing's transaction,
   * so the coin and the right to hold it commit together.
   */
  addCurrency(symbol: string, scale?: number): Promise<void> {
    return addCurrency(this.db, symbol, scale, this.now);
  }

  /** Where this ledger reads: the bound transaction, or the database. */
  get database(): Kysely<Database> {
    return this.db;
  }

  /** Moves money between two of a user's accounts of one currency (assets/transfer). */
  async transfer(request: TransferRequest): Promise<Receipt> {
    const { userId, currency, amount, from, to } = request;
    const book = bookOf(request.book);
    checkCurrencyAndAmount(currency, amount);
    if (!isUserAccountType(from) || !isUserAccountType(to)) throw new LedgerError('accountTypeInvalid');
    if (from === to) throw new LedgerError('transferSameAccount');
    return this.postLegs(request, 'transfer', book, [
      { owner: { userId, type: from }, currency, amount: -amount },
      { owner: { userId, type: to }, currency, amount },
    ]);
  }

  /** Platform account to a user's account. */
  async credit(request: CreditRequest): Promise<Receipt> {
    const { userId, currency, amount, from, to } = request;
    checkCurrencyAndAmount(currency, amount);
    return this.postLegs(request, request.kind, bookOf(request.book), [
      { owner: { platform: from }, currency, amount: -amount },
      { owner: { userId, type: to }, currency, amount },
    ]);
  }

  /** A user's account to a platform account; refused when the account's available balance is short. */
  async debit(request: DebitRequest): Promise<Receipt> {
    const { userId, currency, amount, from, to } = request;
    checkCurrencyAndAmount(currency, amount);
    return this.postLegs(request, request.kind, bookOf(request.book), [
      { owner: { userId, type: from }, currency, amount: -amount },
      { owner: { platform: to }, currency, amount },
    ]);
  }

  /** A balanced entry of any number of legs; refused when any user account would go below zero available. */
  async post(request: EntryRequest): Promise<Receipt> {
    checkLegs(request.legs);
    return this.postLegs(request, request.kind, bookOf(request.book), request.legs);
  }

  /** Freezes part of an account's available balance until the hold is posted or voided. */
  async placeHold(request: PlaceHoldRequest): Promise<Receipt> {
    const { userId, currency, amount, type, kind } = request;
    const book = bookOf(request.book);
    checkCurrencyAndAmount(currency, amount);
    const ref = request.ref ?? null;
    if (ref !== null && ref.length > 64) throw new Error('hold ref longer than 64 characters');
    const [accountId] = await this.accounts.idsOf([{ owner: { userId, type }, book, currency }]);
    if (accountId === undefined) throw new Error('hold account missing');
    const body = ['hold_place', book, currency, type, amount, kind, ref];
    return this.run(request, 'hold_place', body, async (trx, entryId, at) => {
      await this.move(trx, entryId, [{ accountId, amount: 0, held: amount }]);
      const hold = await withLedger(trx)
        .insertInto('ledger_holds')
        .values({ account_id: accountId, kind, ref, amount, state: 'open', entry_id: entryId, created_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      return hold.id;
    });
  }

  /** Pays an open hold out to `to` (see PostHoldRequest); the hold is then `posted` for good. */
  async postHold(request: PostHoldRequest): Promise<Receipt> {
    const { userId, holdId } = request;
    const total = payoutTotal(request);
    const hold = await this.holdOf(userId, holdId);
    if (total > hold.amount) throw new LedgerError('amountTooLarge');
    const destinationIds = await this.accounts.idsOf(
      request.to.map((d): AccountKey => ({ owner: d.owner, book: hold.book, currency: hold.currency })),
    );
    return this.run(request, 'hold_post', postHoldBody(request), async (trx, entryId, at) => {
      const open = await this.lockOpenHold(trx, holdId);
      await this.move(trx, entryId, [
        { accountId: open.account_id, amount: -total, held: -open.amount },
        ...destinationIds.map((accountId, i) => ({ accountId, amount: request.to[i]?.amount ?? 0, held: 0 })),
      ]);
      await this.resolveHold(trx, holdId, 'posted', entryId, at);
      return null;
    });
  }

  /** Releases an open hold back to the available balance; the hold is then `voided` for good. */
  async voidHold(request: VoidHoldRequest): Promise<Receipt> {
    const { userId, holdId } = request;
    await this.holdOf(userId, holdId);
    return this.run(request, 'hold_void', voidHoldBody(request), async (trx, entryId, at) => {
      const open = await this.lockOpenHold(trx, holdId);
      await this.move(trx, entryId, [{ accountId: open.account_id, amount: 0, held: -open.amount }]);
      await this.resolveHold(trx, holdId, 'voided', entryId, at);
      return null;
    });
  }

  /**
   * Applies many requests together, in one write transaction and with a handful of statements whatever their
   * number: the same entries, postings, balances and hold states as calling `postHold`, `voidHold` and `post` one by
   * one in this order (at one moment: every entry gets the same `createdAt`), and the same refusals. Requests are
   * checked in order against the balances the earlier ones leave, so a batch is accepted exactly when the calls one
   * by one would all be. All or nothing: one refusal refuses the batch (the caller may retry the requests one by one
   * to find the culprit). A request whose id was applied before (earlier, or earlier in this batch) is a replay, as
   * with a single call: it changes nothing and gets `replayed: true`; the others still apply. The receipts follow the
   * order of `requests`.
   */
  async settleBatch(requests: readonly BatchRequest[]): Promise<Receipt[]> {
    if (requests.length === 0) return [];
    const items = requests.map(batchItemOf);
    // What a single call reads before its transaction: the holds (immutable fields; their state is read again
    // under lock below) and the account ids, created on first use.
    const holds = await this.holdsById(items.flatMap((item) => (item.holdId === null ? [] : [item.holdId])));
    const keys: AccountKey[] = [];
    for (const item of items) {
      const { request } = item;
      if (request.op === 'post') {
        for (const leg of request.legs) keys.push({ owner: leg.owner, book: item.book, currency: leg.currency });
        continue;
      }
      const hold = holds.get(request.holdId);
      if (!hold || hold.user_id !== request.userId) throw new LedgerError('holdNotFound');
      if (request.op === 'postHold') {
        if (item.total > hold.amount) throw new LedgerError('amountTooLarge');
        for (const d of request.to) keys.push({ owner: d.owner, book: hold.book, currency: hold.currency });
      }
    }
    const accountIds = await this.accounts.idsOf(keys);
    let nextKey = 0;
    for (const item of items) {
      item.accountIds = accountIds.slice(nextKey, nextKey + item.keyCount);
      nextKey += item.keyCount;
    }

    return this.inTransaction(async (trx) => {
      const at = this.now();
      const receipts = await this.claimBatch(trx, items, at);
      const applied = items.filter((_item, i) => !receipts[i]?.replayed);
      if (applied.length === 0) return receipts;

      // Hold rows before accounts, each in id order: the lock order of single calls, so neither can deadlock the
      // other on PostgreSQL. On SQLite a bound transaction is exclusive and already read the current states.
      const heldIds = applied.flatMap((item) => (item.holdId === null ? [] : [item.holdId]));
      const states = new Map<number, LedgerHoldState>();
      if (this.kind === 'postgres' || !this.bound) {
        for (const row of await this.lockHolds(trx, heldIds)) states.set(row.id, row.state);
      } else {
        for (const id of heldIds) states.set(id, holds.get(id)?.state ?? 'open');
      }
      const accounts = await lockAccounts(trx, this.kind, [
        ...applied.flatMap((item) => item.accountIds),
        ...heldIds.map((id) => holds.get(id)?.account_id ?? 0),
      ]);

      // Every request in order, against the balances and hold states the earlier ones leave.
      const current = new Map<number, { balance: number; held: number }>();
      const postings: { entry_id: number; account_id: number; amount: number }[] = [];
      const resolved: { id: number; state: 'posted' | 'voided'; entryId: number }[] = [];
      for (const [i, item] of items.entries()) {
        const receipt = receipts[i];
        if (!receipt || receipt.replayed) continue;
        const { request } = item;
        let movements: Movement[];
        if (request.op === 'post') {
          movements = request.legs.map((leg, k) => ({
            accountId: item.accountIds[k] ?? 0,
            amount: leg.amount,
            held: 0,
          }));
        } else {
          const hold = holds.get(request.holdId);
          if (!hold) throw new Error(`ledger hold ${request.holdId} vanished`);
          if (states.get(request.holdId) !== 'open') throw new LedgerError('holdNotOpen');
          const state = request.op === 'postHold' ? 'posted' : 'voided';
          states.set(request.holdId, state);
          resolved.push({ id: request.holdId, state, entryId: receipt.entryId });
          movements = [
            { accountId: hold.account_id, amount: -item.total, held: -hold.amount },
            ...(request.op === 'postHold'
              ? request.to.map((d, k) => ({ accountId: item.accountIds[k] ?? 0, amount: d.amount, held: 0 }))
              : []),
          ];
        }
        for (const [id, value] of stage(accounts, current, movements)) current.set(id, value);
        for (const m of movements) {
          if (m.amount !== 0) postings.push({ entry_id: receipt.entryId, account_id: m.accountId, amount: m.amount });
        }
      }

      for (const chunk of chunks(postings, 1_000))
        await withLedger(trx).insertInto('ledger_postings').values(chunk).execute();
      const cast = this.kind === 'postgres';
      for (const chunk of chunks([...current], 500)) {
        await withLedger(trx)
          .updateTable('ledger_accounts')
          .set({
            balance: caseById(
              chunk.map(([id, v]) => [id, v.balance]),
              cast,
            ),
            held: caseById(
              chunk.map(([id, v]) => [id, v.held]),
              cast,
            ),
          })
          .where(
            'id',
            'in',
            chunk.map(([id]) => id),
          )
          .execute();
      }
      for (const chunk of chunks(resolved, 500)) {
        // Only open holds move (the guard trigger refuses the others anyway); the count proves each moved once.
        const result = await withLedger(trx)
          .updateTable('ledger_holds')
          .set({
            state: caseById<LedgerHoldState>(
              chunk.map((r) => [r.id, r.state]),
              false,
            ),
            resolved_entry_id: caseById(
              chunk.map((r) => [r.id, r.entryId]),
              cast,
            ),
            resolved_at: at,
          })
          .where(
            'id',
            'in',
            chunk.map((r) => r.id),
          )
          .where('state', '=', 'open')
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== chunk.length) throw new Error('ledger hold resolved concurrently');
      }
      return receipts;
    });
  }

  /**
   * Claims the request ids of a batch by recording its entries (one insert per chunk); an id already taken, before
   * or earlier in the batch, is a replay whose body must be the same. Returns a receipt per item, in order.
   */
  private async claimBatch(trx: Kysely<Database>, items: readonly BatchItem[], at: number): Promise<Receipt[]> {
    const keyOf = (userId: number, requestId: string) => `${userId}\n${requestId}`;
    const first = new Map<string, number>();
    for (const [i, item] of items.entries()) {
      const key = keyOf(item.request.userId, item.request.requestId);
      if (!first.has(key)) first.set(key, i);
    }
    const fresh = [...first.values()];
    const claimed = new Map<string, number>();
    for (const chunk of chunks(fresh, 500)) {
      const rows = await withLedger(trx)
        .insertInto('ledger_entries')
        .values(
          chunk.map((i) => {
            const { request, kind, digest, memo } = items[i] as BatchItem;
            const { userId, requestId } = request;
            return { user_id: userId, kind, request_id: requestId, request_digest: digest, memo, created_at: at };
          }),
        )
        .onConflict((oc) => oc.columns(['user_id', 'request_id']).doNothing())
        .returning(['id', 'user_id', 'request_id'])
        .execute();
      for (const row of rows) claimed.set(keyOf(row.user_id, row.request_id), row.id);
    }
    const taken = new Map<string, { id: number; request_digest: string; created_at: number }>();
    const replays = fresh
      .map((i) => items[i] as BatchItem)
      .filter((item) => {
        return !claimed.has(keyOf(item.request.userId, item.request.requestId));
      });
    for (const chunk of chunks(replays, 500)) {
      const rows = await withLedger(trx)
        .selectFrom('ledger_entries')
        .select(['id', 'user_id', 'request_id', 'request_digest', 'created_at'])
        .where('user_id', 'in', [...new Set(chunk.map((item) => item.request.userId))])
        .where('request_id', 'in', [...new Set(chunk.map((item) => item.request.requestId))])
        .execute();
      for (const row of rows) taken.set(keyOf(row.user_id, row.request_id), row);
    }
    return items.map((item, i) => {
      const key = keyOf(item.request.userId, item.request.requestId);
      const entryId = claimed.get(key);
      if (entryId !== undefined && first.get(key) === i) {
        return { entryId, holdId: null, createdAt: at, replayed: false };
      }
      const original = first.get(key) ?? i;
      const digest = (items[original] as BatchItem).digest;
      const before = taken.get(key);
      if (before) {
        if (before.request_digest !== item.digest) throw new LedgerError('requestIdReused');
        return { entryId: before.id, holdId: null, createdAt: before.created_at, replayed: true };
      }
      if (entryId === undefined) throw new Error(`ledger entry of ${item.request.requestId} vanished`);
      if (digest !== item.digest) throw new LedgerError('requestIdReused');
      return { entryId, holdId: null, createdAt: at, replayed: true };
    });
  }

  /** Holds by id with their account's book, currency and owner. */
  private async holdsById(ids: readonly number[]) {
    const unique = [...new Set(ids)];
    const holds = new Map<
      number,
      {
        id: number;
        account_id: number;
        amount: number;
        state: LedgerHoldState;
        book: LedgerBook;
        currency: string;
        user_id: number | null;
      }
    >();
    for (const id of unique) if (!Number.isSafeInteger(id)) throw new LedgerError('holdNotFound');
    for (const chunk of chunks(unique, 500)) {
      const rows = await withLedger(this.db)
        .selectFrom('ledger_holds as h')
        .innerJoin('ledger_accounts as a', 'a.id', 'h.account_id')
        .select(['h.id', 'h.account_id', 'h.amount', 'h.state', 'a.book', 'a.currency', 'a.user_id'])
        .where('h.id', 'in', chunk)
        .execute();
      for (const row of rows) holds.set(row.id, row);
    }
    return holds;
  }

  /** The current states of hold rows, locked in id order on PostgreSQL. */
  private async lockHolds(trx: Kysely<Database>, ids: readonly number[]) {
    const unique = [...new Set(ids)].sort((a, b) => a - b);
    const rows: { id: number; state: LedgerHoldState }[] = [];
    for (const chunk of chunks(unique, 500)) {
      rows.push(
        ...(await withLedger(trx)
          .selectFrom('ledger_holds')
          .select(['id', 'state'])
          .where('id', 'in', chunk)
          .orderBy('id')
          .$if(this.kind === 'postgres', (qb) => qb.forUpdate())
          .execute()),
      );
    }
    return rows;
  }

  /** The user's accounts that exist (an account appears at its first posting or hold), optionally of one book. */
  async balances(userId: number, book?: LedgerBook): Promise<BalanceRow[]> {
    const rows = await withLedger(this.db)
      .selectFrom('ledger_accounts')
      .select(['book', 'type', 'currency', 'balance', 'held'])
      .where('user_id', '=', userId)
      .$if(book !== undefined, (qb) => qb.where('book', '=', book ?? 'real'))
      .orderBy('book')
      .orderBy('type')
      .orderBy('currency')
      .execute();
    return rows.map((row) => ({ ...row, available: row.balance - row.held }));
  }

  /** The user's postings, newest first; `beforeId` pages on from the last row's postingId. */
  async history(
    userId: number,
    filter: { book?: LedgerBook; currency?: string; type?: UserAccountType; limit?: number; beforeId?: number } = {},
  ): Promise<HistoryRow[]> {
    const { book, currency, type, beforeId } = filter;
    const rows = await withLedger(this.db)
      .selectFrom('ledger_postings as p')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .innerJoin('ledger_entries as e', 'e.id', 'p.entry_id')
      .select([
        'p.id as postingId',
        'p.entry_id as entryId',
        'e.kind',
        'a.book',
        'a.type',
        'a.currency',
        'p.amount',
        'e.request_id as requestId',
        'e.memo',
        'e.created_at as createdAt',
      ])
      .where('a.user_id', '=', userId)
      .$if(book !== undefined, (qb) => qb.where('a.book', '=', book ?? 'real'))
      .$if(currency !== undefined, (qb) => qb.where('a.currency', '=', currency ?? ''))
      .$if(type !== undefined, (qb) => qb.where('a.type', '=', type ?? 'coin'))
      .$if(beforeId !== undefined, (qb) => qb.where('p.id', '<', beforeId ?? 0))
      .orderBy('p.id', 'desc')
      .limit(Math.min(Math.max(filter.limit ?? 50, 1), 500))
      .execute();
    return rows;
  }

  /** The user's holds, newest first, optionally only those in one state. */
  async holds(userId: number, state?: LedgerHoldState): Promise<HoldRow[]> {
    return withLedger(this.db)
      .selectFrom('ledger_holds as h')
      .innerJoin('ledger_accounts as a', 'a.id', 'h.account_id')
      .select([
        'h.id',
        'h.kind',
        'h.ref',
        'a.book',
        'a.type',
        'a.currency',
        'h.amount',
        'h.state',
        'h.created_at as createdAt',
        'h.resolved_at as resolvedAt',
      ])
      .where('a.user_id', '=', userId)
      .$if(state !== undefined, (qb) => qb.where('h.state', '=', state ?? 'open'))
      .orderBy('h.id', 'desc')
      .execute();
  }

  private async postLegs(
    request: RequestBase,
    kind: EntryKind,
    book: LedgerBook,
    legs: readonly Leg[],
  ): Promise<Receipt> {
    const ids = await this.accounts.idsOf(legs.map((leg) => ({ owner: leg.owner, book, currency: leg.currency })));
    return this.run(request, kind, legsBody(kind, book, legs), async (trx, entryId) => {
      await this.move(
        trx,
        entryId,
        legs.map((leg, i) => ({ accountId: ids[i] ?? 0, amount: leg.amount, held: 0 })),
      );
      return null;
    });
  }

  /**
   * The frame of every change: one write transaction that first claims the request id by recording the entry (a
   * retry finds it taken and gets the original receipt; another body under the same id is refused), then lets
   * `work` post.
   */
  private async run(
    request: RequestBase,
    kind: EntryKind,
    body: unknown[],
    work: (trx: Kysely<Database>, entryId: number, at: number) => Promise<number | null>,
  ): Promise<Receipt> {
    const { userId, requestId } = request;
    const { digest, memo } = claimOf(request, body);
    return this.inTransaction(async (trx) => {
      const at = this.now();
      // Claiming the request id is the first write: a concurrent request with the same id waits here (PostgreSQL)
      // or ran entirely before (SQLite), and then finds the id taken.
      const entry = await withLedger(trx)
        .insertInto('ledger_entries')
        .values({ user_id: userId, kind, request_id: requestId, request_digest: digest, memo, created_at: at })
        .onConflict((oc) => oc.columns(['user_id', 'request_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!entry) return this.replay(trx, userId, requestId, digest);
      const holdId = await work(trx, entry.id, at);
      return { entryId: entry.id, holdId, createdAt: at, replayed: false };
    });
  }

  private inTransaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.bound ? work(this.bound) : writeTransaction(this.handle, work);
  }

  /** The receipt of the request that already holds this id, or a refusal when its body was another. */
  private async replay(trx: Kysely<Database>, userId: number, requestId: string, digest: string): Promise<Receipt> {
    const entry = await withLedger(trx)
      .selectFrom('ledger_entries')
      .select(['id', 'request_digest', 'created_at'])
      .where('user_id', '=', userId)
      .where('request_id', '=', requestId)
      .executeTakeFirstOrThrow();
    if (entry.request_digest !== digest) throw new LedgerError('requestIdReused');
    const hold = await withLedger(trx)
      .selectFrom('ledger_holds')
      .select('id')
      .where('entry_id', '=', entry.id)
      .executeTakeFirst();
    return { entryId: entry.id, holdId: hold?.id ?? null, createdAt: entry.created_at, replayed: true };
  }

  /**
   * Locks the accounts, checks that every user account keeps a non-negative available balance and every
   * balance stays an exact number, then writes the postings and the new balances.
   */
  private async move(trx: Kysely<Database>, entryId: number, movements: readonly Movement[]): Promise<void> {
    const accounts = await lockAccounts(
      trx,
      this.kind,
      movements.map((m) => m.accountId),
    );
    const next = stage(accounts, new Map(), movements);
    const postings = movements
      .filter((m) => m.amount !== 0)
      .map((m) => ({ entry_id: entryId, account_id: m.accountId, amount: m.amount }));
    if (postings.length > 0) await withLedger(trx).insertInto('ledger_postings').values(postings).execute();
    for (const [id, { balance, held }] of next) {
      await withLedger(trx).updateTable('ledger_accounts').set({ balance, held }).where('id', '=', id).execute();
    }
  }

  /** The hold with its book and currency, when it belongs to `userId` (others' holds do not exist for them). */
  private async holdOf(userId: number, holdId: number) {
    const hold = Number.isSafeInteger(holdId)
      ? await withLedger(this.db)
          .selectFrom('ledger_holds as h')
          .innerJoin('ledger_accounts as a', 'a.id', 'h.account_id')
          .select(['h.amount', 'a.book', 'a.currency', 'a.user_id'])
          .where('h.id', '=', holdId)
          .executeTakeFirst()
      : undefined;
    if (!hold || hold.user_id !== userId) throw new LedgerError('holdNotFound');
    return hold;
  }

  /** Locks the hold row (before any account, the one order every transaction uses) and insists it is open. */
  private async lockOpenHold(trx: Kysely<Database>, holdId: number) {
    const hold = await withLedger(trx)
      .selectFrom('ledger_holds')
      .select(['account_id', 'amount', 'state'])
      .where('id', '=', holdId)
      .$if(this.kind === 'postgres', (qb) => qb.forUpdate())
      .executeTakeFirstOrThrow();
    if (hold.state !== 'open') throw new LedgerError('holdNotOpen');
    return hold;
  }

  private async resolveHold(
    trx: Kysely<Database>,
    holdId: number,
    state: 'posted' | 'voided',
    entryId: number,
    at: number,
  ): Promise<void> {
    await withLedger(trx)
      .updateTable('ledger_holds')
      .set({ state, resolved_entry_id: entryId, resolved_at: at })
      .where('id', '=', holdId)
      .execute();
  }
}

const bookOf = (book: LedgerBook | undefined): LedgerBook => book ?? 'real';

function checkCurrencyAndAmount(currency: string, amount: number): void {
  if (!isCurrency(currency)) throw new LedgerError('currencyUnsupported');
  const error = checkUnits(amount);
  if (error) throw new LedgerError(error);
}

const ownerText = (owner: AccountOwner): string =>
  'userId' in owner ? `${owner.userId}:${owner.type}` : `platform:${owner.platform}`;

/** A request of a batch with what a single call checks and records before its transaction. */
interface BatchItem {
  request: BatchRequest;
  kind: EntryKind;
  book: LedgerBook;
  digest: string;
  memo: string | null;
  holdId: number | null;
  /** postHold: what leaves the held account. */
  total: number;
  /** How many account keys the item names (legs or destinations), and their ids once known. */
  keyCount: number;
  accountIds: number[];
}

function batchItemOf(request: BatchRequest): BatchItem {
  const base = { accountIds: [] as number[] };
  if (request.op === 'post') {
    checkLegs(request.legs);
    const book = bookOf(request.book);
    const claim = claimOf(request, legsBody(request.kind, book, request.legs));
    return {
      ...base,
      ...claim,
      request,
      kind: request.kind,
      book,
      holdId: null,
      total: 0,
      keyCount: request.legs.length,
    };
  }
  if (request.op === 'postHold') {
    const total = payoutTotal(request);
    const claim = claimOf(request, postHoldBody(request));
    return {
      ...base,
      ...claim,
      request,
      kind: 'hold_post',
      book: 'real',
      holdId: request.holdId,
      total,
      keyCount: request.to.length,
    };
  }
  if (request.op === 'voidHold') {
    const claim = claimOf(request, voidHoldBody(request));
    return {
      ...base,
      ...claim,
      request,
      kind: 'hold_void',
      book: 'real',
      holdId: request.holdId,
      total: 0,
      keyCount: 0,
    };
  }
  throw new Error(`not a batch request: ${(request as { op: unknown }).op}`);
}

/** Checks the caller's part of a request and digests its body (the request id is claimed with the digest). */
function claimOf(request: RequestBase, body: unknown[]): { digest: string; memo: string | null } {
  const { userId, requestId } = request;
  if (!Number.isSafeInteger(userId) || userId <= 0) throw new Error(`not a user id: ${userId}`);
  if (typeof requestId !== 'string' || !REQUEST_ID_RE.test(requestId)) throw new LedgerError('requestIdInvalid');
  const memo = request.memo ?? null;
  if (memo !== null && memo.length > MEMO_MAX) throw new Error(`memo longer than ${MEMO_MAX} characters`);
  return { digest: sha256(JSON.stringify([...body, memo])), memo };
}

const postHoldBody = (request: PostHoldRequest): unknown[] => [
  'hold_post',
  request.holdId,
  request.to.map((d) => [ownerText(d.owner), d.amount]),
];

const voidHoldBody = (request: VoidHoldRequest): unknown[] => ['hold_void', request.holdId];

const legsBody = (kind: EntryKind, book: LedgerBook, legs: readonly Leg[]): unknown[] => [
  kind,
  book,
  legs.map((leg) => [ownerText(leg.owner), leg.currency, leg.amount]),
];

/** The sum a postHold pays out, each part a valid amount. */
function payoutTotal(request: PostHoldRequest): number {
  if (request.to.length === 0) throw new Error('postHold needs a destination; use voidHold to release');
  let total = 0;
  for (const destination of request.to) {
    const error = checkUnits(destination.amount);
    if (error) throw new LedgerError(error);
    total += destination.amount;
  }
  return total;
}

function checkLegs(legs: readonly Leg[]): void {
  if (legs.length < 2) throw new Error('an entry needs at least two legs');
  for (const leg of legs) {
    const error = checkUnits(Math.abs(leg.amount));
    if (error) throw new LedgerError(error);
  }
}

/**
 * The balances one entry's movements leave on the accounts it touches, starting from `current` (earlier entries of
 * the same batch) or the locked rows: refused unless every currency sums to zero, every value stays an exact
 * number, nothing is held below zero and no user account goes below zero available.
 */
function stage(
  accounts: ReadonlyMap<number, LockedAccount>,
  current: ReadonlyMap<number, { balance: number; held: number }>,
  movements: readonly Movement[],
): Map<number, { balance: number; held: number }> {
  const next = new Map<number, { balance: number; held: number }>();
  const sums = new Map<string, number>();
  for (const m of movements) {
    const account = accounts.get(m.accountId);
    if (!account) throw new Error(`ledger account ${m.accountId} vanished`);
    const before = next.get(m.accountId) ??
      current.get(m.accountId) ?? { balance: account.balance, held: account.held };
    next.set(m.accountId, { balance: before.balance + m.amount, held: before.held + m.held });
    const sumKey = `${account.book}/${account.currency}`;
    sums.set(sumKey, (sums.get(sumKey) ?? 0) + m.amount);
  }
  for (const [key, sum] of sums) {
    if (sum !== 0) throw new Error(`unbalanced ledger entry: ${key} sums to ${sum}`);
  }
  for (const [id, { balance, held }] of next) {
    const account = accounts.get(id);
    if (!Number.isSafeInteger(balance) || !Number.isSafeInteger(held)) throw new LedgerError('amountTooLarge');
    if (held < 0) throw new Error(`ledger account ${id} would hold ${held}`);
    if (account?.user_id !== null && balance - held < 0) throw new LedgerError('insufficientBalance');
    if (account && account.user_id === null && balance < 0 && NON_NEGATIVE_PLATFORM_ACCOUNTS.has(account.type)) {
      throw new LedgerError('insufficientBalance');
    }
  }
  return next;
}

/**
 * A value per row id in one expression, so one UPDATE sets a different value on each row. PostgreSQL types an
 * untyped parameter in a CASE as text, which a bigint column refuses: `cast` says so.
 */
function caseById<T = number>(pairs: ReadonlyArray<readonly [number, T]>, cast: boolean) {
  const whens = pairs.map(([id, value]) =>
    cast ? sql`when ${id} then cast(${value} as bigint)` : sql`when ${id} then ${value}`,
  );
  return sql<T>`case id ${sql.join(whens, sql` `)} end`;
}

function* chunks<T>(list: readonly T[], size: number): Generator<T[]> {
  for (let k = 0; k < list.length; k += size) yield list.slice(k, k + size);
}
