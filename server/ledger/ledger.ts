import type { Kysely } from 'kysely';
import type { EntryKind } from '../../protocol/wallet';
import type { DatabaseHandle, DialectKind } from '../platform/db/connect';
import type { Database, LedgerHoldKind, LedgerHoldState } from '../platform/db/schema';
import { writeTransaction } from '../platform/db/transaction';
import { sha256 } from '../platform/security/digest';
import {
  AccountDirectory,
  type AccountKey,
  type AccountOwner,
  isUserAccountType,
  type LedgerAccountType,
  type LedgerBook,
  lockAccounts,
  type PlatformAccountType,
  type UserAccountType,
} from './accounts';
import { checkUnits, isCurrency } from './amounts';
import { LedgerError } from './errors';

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
    const book = bookOf(request.book);
    if (request.legs.length < 2) throw new Error('an entry needs at least two legs');
    for (const leg of request.legs) {
      const error = checkUnits(Math.abs(leg.amount));
      if (error) throw new LedgerError(error);
    }
    return this.postLegs(request, request.kind, book, request.legs);
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
      const hold = await trx
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
    if (request.to.length === 0) throw new Error('postHold needs a destination; use voidHold to release');
    let total = 0;
    for (const destination of request.to) {
      const error = checkUnits(destination.amount);
      if (error) throw new LedgerError(error);
      total += destination.amount;
    }
    const hold = await this.holdOf(userId, holdId);
    if (total > hold.amount) throw new LedgerError('amountTooLarge');
    const destinationIds = await this.accounts.idsOf(
      request.to.map((d): AccountKey => ({ owner: d.owner, book: hold.book, currency: hold.currency })),
    );
    const body = ['hold_post', holdId, request.to.map((d) => [ownerText(d.owner), d.amount])];
    return this.run(request, 'hold_post', body, async (trx, entryId, at) => {
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
    return this.run(request, 'hold_void', ['hold_void', holdId], async (trx, entryId, at) => {
      const open = await this.lockOpenHold(trx, holdId);
      await this.move(trx, entryId, [{ accountId: open.account_id, amount: 0, held: -open.amount }]);
      await this.resolveHold(trx, holdId, 'voided', entryId, at);
      return null;
    });
  }

  /** The user's accounts that exist (an account appears at its first posting or hold), optionally of one book. */
  async balances(userId: number, book?: LedgerBook): Promise<BalanceRow[]> {
    const rows = await this.db
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
    const rows = await this.db
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
    return this.db
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
    const body = [kind, book, legs.map((leg) => [ownerText(leg.owner), leg.currency, leg.amount])];
    return this.run(request, kind, body, async (trx, entryId) => {
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
    if (!Number.isSafeInteger(userId) || userId <= 0) throw new Error(`not a user id: ${userId}`);
    if (typeof requestId !== 'string' || !REQUEST_ID_RE.test(requestId)) throw new LedgerError('requestIdInvalid');
    const memo = request.memo ?? null;
    if (memo !== null && memo.length > MEMO_MAX) throw new Error(`memo longer than ${MEMO_MAX} characters`);
    const digest = sha256(JSON.stringify([...body, memo]));
    const inTransaction = <T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> =>
      this.bound ? work(this.bound) : writeTransaction(this.handle, work);
    return inTransaction(async (trx) => {
      const at = this.now();
      // Claiming the request id is the first write: a concurrent request with the same id waits here (PostgreSQL)
      // or ran entirely before (SQLite), and then finds the id taken.
      const entry = await trx
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

  /** The receipt of the request that already holds this id, or a refusal when its body was another. */
  private async replay(trx: Kysely<Database>, userId: number, requestId: string, digest: string): Promise<Receipt> {
    const entry = await trx
      .selectFrom('ledger_entries')
      .select(['id', 'request_digest', 'created_at'])
      .where('user_id', '=', userId)
      .where('request_id', '=', requestId)
      .executeTakeFirstOrThrow();
    if (entry.request_digest !== digest) throw new LedgerError('requestIdReused');
    const hold = await trx.selectFrom('ledger_holds').select('id').where('entry_id', '=', entry.id).executeTakeFirst();
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
    const next = new Map<number, { balance: number; held: number }>();
    const sums = new Map<string, number>();
    for (const m of movements) {
      const account = accounts.get(m.accountId);
      if (!account) throw new Error(`ledger account ${m.accountId} vanished`);
      const current = next.get(m.accountId) ?? { balance: account.balance, held: account.held };
      next.set(m.accountId, { balance: current.balance + m.amount, held: current.held + m.held });
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
    }
    const postings = movements
      .filter((m) => m.amount !== 0)
      .map((m) => ({ entry_id: entryId, account_id: m.accountId, amount: m.amount }));
    if (postings.length > 0) await trx.insertInto('ledger_postings').values(postings).execute();
    for (const [id, { balance, held }] of next) {
      await trx.updateTable('ledger_accounts').set({ balance, held }).where('id', '=', id).execute();
    }
  }

  /** The hold with its book and currency, when it belongs to `userId` (others' holds do not exist for them). */
  private async holdOf(userId: number, holdId: number) {
    const hold = Number.isSafeInteger(holdId)
      ? await this.db
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
    const hold = await trx
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
    await trx
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
