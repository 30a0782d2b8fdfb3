import type { Kysely } from 'kysely';
import type { DialectKind } from '../platform/db/connect';
import type { Database } from '../platform/db/schema';
import { isCurrency } from './amounts';
import { LedgerError } from './errors';
import {
  BOOKS,
  type LedgerAccountType,
  type LedgerBook,
  PLATFORM_ACCOUNT_TYPES,
  type PlatformAccountType,
  USER_ACCOUNT_TYPES,
  type UserAccountType,
} from './kinds';
import { withLedger } from './tables';

export * from './kinds';

/**
 * Platform accounts that, like a user's, may not go below zero: a finance order is sold only when its promised yield
 * moves from the reserve into `finance_yield`, so the ledger itself refuses to promise what is not funded.
 */
export const NON_NEGATIVE_PLATFORM_ACCOUNTS: ReadonlySet<string> = new Set<PlatformAccountType>([
  'finance_reserve',
  'finance_yield',
]);

export const isUserAccountType = (type: string): type is UserAccountType =>
  (USER_ACCOUNT_TYPES as readonly string[]).includes(type);

/** Whose account: one of a user's, or one of the platform's. */
export type AccountOwner = { userId: number; type: UserAccountType } | { platform: PlatformAccountType };

/** Refuses a key no account may have: a user account type from the request is the user's mistake, the rest are bugs. */
function checkKey(key: AccountKey): void {
  const { owner } = key;
  if ('userId' in owner) {
    if (!Number.isSafeInteger(owner.userId) || owner.userId <= 0) throw new Error(`not a user id: ${owner.userId}`);
    if (!isUserAccountType(owner.type)) throw new LedgerError('accountTypeInvalid');
  } else if (!(PLATFORM_ACCOUNT_TYPES as readonly string[]).includes(owner.platform)) {
    throw new Error(`not a platform account: ${owner.platform}`);
  }
  if (!(BOOKS as readonly string[]).includes(key.book)) throw new Error(`not a ledger book: ${key.book}`);
  if (!isCurrency(key.currency)) throw new LedgerError('currencyUnsupported');
}

/** One account: owner, book and currency. */
export interface AccountKey {
  owner: AccountOwner;
  book: LedgerBook;
  currency: string;
}

/** An account row as the ledger reads it inside a write transaction. */
export interface LockedAccount {
  id: number;
  user_id: number | null;
  book: LedgerBook;
  type: LedgerAccountType;
  currency: string;
  balance: number;
  held: number;
}

const ownerUserId = (owner: AccountOwner): number | null => ('userId' in owner ? owner.userId : null);
const ownerType = (owner: AccountOwner): LedgerAccountType => ('userId' in owner ? owner.type : owner.platform);
const keyText = (key: AccountKey): string =>
  `${ownerUserId(key.owner) ?? 'platform'}/${key.book}/${ownerType(key.owner)}/${key.currency}`;

/** Accounts are never deleted, so an id once seen stays right; the cache only bounds its own size. */
const CACHE_LIMIT = 50_000;
/** User ids per lookup: well below the bound-parameter limits of both databases. */
const LOAD_CHUNK = 500;

function chunked<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let k = 0; k < list.length; k += size) out.push(list.slice(k, k + size));
  return out;
}

/**
 * Finds account ids, creating accounts on first use. Creation runs outside the caller's write transaction (an
 * empty account changes no balance), so two transactions never wait on each other's half-created accounts; the
 * price is that a refused request may leave an empty account behind.
 */
export class AccountDirectory {
  private readonly ids = new Map<string, number>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
  ) {}

  /** The ids of `keys`, in the same order. */
  async idsOf(keys: readonly AccountKey[]): Promise<number[]> {
    for (const key of keys) checkKey(key);
    // Bounded between calls, never within one: a call relies on what it found cached until it returns.
    if (this.ids.size > CACHE_LIMIT) this.ids.clear();
    // Distinct keys only: a batch names the shared platform accounts once per item, and each repeat would add a term
    // to the lookup below.
    const missing = [...new Map(keys.map((key) => [keyText(key), key])).values()].filter(
      (key) => !this.ids.has(keyText(key)),
    );
    if (missing.length > 0) {
      await this.load(missing);
      const absent = missing.filter((key) => !this.ids.has(keyText(key)));
      if (absent.length > 0) {
        await this.create(absent);
        await this.load(absent);
      }
    }
    return keys.map((key) => {
      const id = this.ids.get(keyText(key));
      if (id === undefined) throw new Error(`ledger account not created: ${keyText(key)}`);
      return id;
    });
  }

  /** The id of an account if it exists, without creating it (for reads). */
  async find(key: AccountKey): Promise<number | undefined> {
    if (this.ids.size > CACHE_LIMIT) this.ids.clear();
    if (!this.ids.has(keyText(key))) await this.load([key]);
    return this.ids.get(keyText(key));
  }

  /**
   * Reads the ids of `keys`: one query per (book, type, currency) group and chunk of user ids, so a batch over many
   * users stays a few `user_id in (...)` lookups (SQLite refuses an expression of a thousand OR terms).
   */
  private async load(keys: readonly AccountKey[]): Promise<void> {
    const groups = new Map<
      string,
      { book: LedgerBook; type: LedgerAccountType; currency: string; users: number[]; platform: boolean }
    >();
    for (const key of keys) {
      const userId = ownerUserId(key.owner);
      const type = ownerType(key.owner);
      const groupKey = `${userId === null ? 'p' : 'u'}/${key.book}/${type}/${key.currency}`;
      let group = groups.get(groupKey);
      if (!group) {
        group = { book: key.book, type, currency: key.currency, users: [], platform: userId === null };
        groups.set(groupKey, group);
      }
      if (userId !== null) group.users.push(userId);
    }
    for (const group of groups.values()) {
      const chunks = group.platform ? [[]] : chunked(group.users, LOAD_CHUNK);
      for (const users of chunks) {
        const rows = await withLedger(this.db)
          .selectFrom('ledger_accounts')
          .select(['id', 'user_id', 'book', 'type', 'currency'])
          .where('book', '=', group.book)
          .where('type', '=', group.type)
          .where('currency', '=', group.currency)
          .$if(group.platform, (qb) => qb.where('user_id', 'is', null))
          .$if(!group.platform, (qb) => qb.where('user_id', 'in', users))
          .execute();
        for (const row of rows) {
          const owner: AccountOwner =
            row.user_id === null
              ? { platform: row.type as PlatformAccountType }
              : { userId: row.user_id, type: row.type as UserAccountType };
          this.ids.set(keyText({ owner, book: row.book, currency: row.currency }), row.id);
        }
      }
    }
  }

  private async create(keys: readonly AccountKey[]): Promise<void> {
    const at = this.now();
    await withLedger(this.db)
      .insertInto('ledger_accounts')
      .values(
        keys.map((key) => ({
          user_id: ownerUserId(key.owner),
          book: key.book,
          type: ownerType(key.owner),
          currency: key.currency,
          balance: 0,
          held: 0,
          created_at: at,
        })),
      )
      // A concurrent request may have just created the same account; its row is as good as ours.
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/**
 * Reads accounts for update inside a write transaction. PostgreSQL takes row locks in ascending id order (the
 * same order in every transaction, so two transfers between the same accounts cannot deadlock); SQLite already
 * holds the database's write lock (BEGIN IMMEDIATE), so a plain read is current and stays so.
 */
export async function lockAccounts(
  trx: Kysely<Database>,
  kind: DialectKind,
  ids: readonly number[],
): Promise<Map<number, LockedAccount>> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  const rows = await withLedger(trx)
    .selectFrom('ledger_accounts')
    .select(['id', 'user_id', 'book', 'type', 'currency', 'balance', 'held'])
    .where('id', 'in', unique)
    .orderBy('id')
    .$if(kind === 'postgres', (qb) => qb.forUpdate())
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}
