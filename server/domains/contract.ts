import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';
import type { CallTable } from '../../protocol/call-spec';
import type { TracedMachine } from '../../protocol/inspection';
import type { Ledger, LedgerBook, UserAccountType } from '../ledger';
import type { MarketFeed, RecorderOptions } from '../market';
import type { DatabaseHandle, DialectKind } from '../platform/db/connect';
import type { DomainMigration } from '../platform/db/migration-kit';
import type { Database } from '../platform/db/schema';
import type { CallHandlers } from '../platform/http/calls';
import type { DomainMessages } from '../platform/i18n/messages';
import type { Job } from '../platform/jobs/runner';
import type { OpsCommand } from '../platform/ops/commands';
import type { RealtimeModule } from '../platform/realtime/gateway';
import type { Command, PrivateTopic } from '../platform/realtime/private-topics';
import type { RateLimiter } from '../platform/security/rate-limit';
import type { Sessions } from '../platform/security/sessions';
// Reached past their index on purpose: each domain's index imports this contract, so going through the index would
// close a loop. They are the only things one domain hands to others at start.
import type { HashCost } from './account/passwords';
import type { AccountServices } from './account/services';
import type { SealedData } from './bank-cards/ops';
import type { OpsSection } from './operators/section';
import type { UploadStore } from './uploads/store';

/**
 * The domain contract (DESIGN "Layout": server/domains/<area>/index.ts). A domain says once what it brings: its
 * calls, tables, migrations, jobs, socket topics and commands, operator (CLI) commands and console calls. One list
 * (domains/index.ts) names every domain, and one loop each in app.ts, migrations.ts and ops/cli.ts composes them, so
 * a new product touches its own folders and that one list.
 */

/** The market as the app was given it (AppOptions.market). */
export interface MarketOptions {
  feed: MarketFeed;
  /** Record every published price to `price_ticks` (default true); false leaves the table alone. */
  record?: boolean | RecorderOptions;
  /** Socket update batching interval in ms (default 250: at most 4 messages a second per topic). */
  flushMs?: number;
}

/** The app's tuning that only some domains read (AppOptions passes it through unchanged). */
export interface DomainSettings {
  market?: MarketOptions | undefined;
  /** Where uploaded images go (main.ts: DATA_DIR/uploads); without one, a private temp directory on first use. */
  uploadsDir?: string | undefined;
  /** Largest accepted upload in bytes (default MAX_UPLOAD_BYTES, 5 MiB). */
  maxUploadBytes?: number | undefined;
  /** How often the finance accrual job looks for interest due (default 60 s; a day falls due at 00:00 UTC). */
  financeAccrualMs?: number | undefined;
  /** How often the IEO job looks for steps due (default 5 s). */
  ieoStepsMs?: number | undefined;
  /** How often the C2C job cancels unpaid orders whose payment window ended (default 5 s). */
  c2cExpiryMs?: number | undefined;
  /** How often the referral job pays the rebates of new trading fees (default 5 s). */
  referralRebatesMs?: number | undefined;
  /** The key that encrypts bank card data at rest (main.ts: DATA_KEY or DATA_DIR/data.key); tests may leave it out. */
  dataKey?: Uint8Array | undefined;
  /** argon2 cost of operators' passwords (the users' is in ctx.account); tests lower it. */
  hashCost?: HashCost | undefined;
  /** PUBLIC_ORIGIN: the origins wallet login messages may name; none: loopback hosts only (README "Wallet login"). */
  publicOrigins?: readonly string[] | undefined;
}

/** The last price of an instrument as the feed quotes it; undefined without one. */
export type MarkOf = (symbol: string) => string | undefined;

/**
 * What a domain holds against the money of one account type and currency (lever: the contract account's USDT backs
 * cross positions). The wallet asks every guard before money leaves such an account and shows what may leave, so it
 * names no product.
 */
export interface AccountGuard {
  type: UserAccountType;
  currency: string;
  /** The most that may leave now (minor units), read without a lock: what the transfer page offers. */
  transferable: (db: Kysely<Database>, userId: number, book: LedgerBook, markOf: MarkOf) => Promise<bigint>;
  /** Refuses (a BusinessError) `amount` leaving, in the transfer's transaction once its accounts are locked. */
  refuseTransfer: (
    trx: Kysely<Database>,
    kind: DialectKind,
    userId: number,
    book: LedgerBook,
    amount: bigint,
    markOf: MarkOf,
  ) => Promise<void>;
}

/**
 * Whether an order that clients trace for QA (protocol/inspection.ts TracedMachine) is the user's own: its buyer,
 * merchant or owner. The product that keeps the order answers, so inspection names no product.
 */
export type OrderOwnership = (db: Kysely<Database>, userId: number, orderId: number) => Promise<boolean>;
export type TracedOrderOwners = Partial<Record<TracedMachine, OrderOwnership>>;

/**
 * The usual OrderOwnership: the order is a row of the domain's `table` (typed by its `tables`, so a wrong table or
 * column fails the type check) whose id is the order's and one of whose `owners` columns is the user.
 */
export function ownedRow<T extends Record<string, object>, K extends keyof T & string>(
  _tables: (db: Kysely<Database>) => Kysely<Database & T>,
  table: K,
  ...owners: readonly [keyof T[K] & string, ...(keyof T[K] & string)[]]
): OrderOwnership {
  return async (db, userId, orderId) => {
    const ownedBy = sql.join(
      owners.map((column) => sql`${sql.ref(column)} = ${userId}`),
      sql` or `,
    );
    const found = await sql<{
      id: number;
    }>`select id from ${sql.table(table)} where id = ${orderId} and (${ownedBy})`.execute(db);
    return found.rows.length > 0;
  };
}

/** What the app gives every domain at start: the platform's services, the one ledger, the feed and the settings. */
export interface DomainContext {
  database: DatabaseHandle;
  db: Kysely<Database>;
  /** The server's clock in milliseconds. */
  now: () => number;
  log: FastifyBaseLogger;
  /** The one ledger of this app: every balance change of every domain goes through it. */
  ledger: Ledger;
  /** The market feed; absent in tests that need no prices (market calls answer "not found", no engines run). */
  feed: MarketFeed | undefined;
  limiter: RateLimiter;
  sessions: Sessions;
  /** The account services (codes, passwords, limits) that wallet login, addresses and funding work with too. */
  account: AccountServices;
  /** The upload store: chat shares its images through it, the console shows them. */
  uploads: UploadStore;
  settings: DomainSettings;
  /** Every domain's account guards (compose.ts), for the wallet's transfers. */
  accountGuards: readonly AccountGuard[];
  /** Every domain's traced orders' owners (compose.ts), for inspection. */
  tracedOrders: TracedOrderOwners;
}

/** What the app composes once every domain has started (the console serves every domain's sections). */
export interface Composed {
  console: readonly OpsSection[];
}

/** A handler for every call of the table a domain names (none when it names none). */
export type HandlersOf<C extends CallTable> = [keyof C] extends [never]
  ? { handlers?: undefined }
  : { handlers: CallHandlers<C> };

/** A domain's running parts, made at start from the context; `handlers` serve every call of its table. */
export type DomainParts<C extends CallTable = CallTable> = HandlersOf<C> & RunningParts;

export interface RunningParts {
  /** Its background work (platform/jobs/runner.ts). */
  jobs?: readonly Job[];
  /** Its private socket topics (me:<name>) and socket commands. */
  topics?: readonly PrivateTopic<unknown>[];
  commands?: readonly Command<unknown, unknown>[];
  /** Public socket surfaces of their own (the market topics). */
  realtime?: readonly RealtimeModule[];
  /** Its sections of the support console (/api/ops/...). */
  console?: readonly OpsSection[];
  /** HTTP routes outside the call table (uploads, the console itself), registered after every call. */
  routes?: (app: FastifyInstance, composed: Composed) => Promise<void>;
  /** Run when the app closes (engines, watchers, recorders stop). */
  close?: () => void | Promise<void>;
}

/** An operator command, or a word of another domain's command (`fees spot` under funding's `fees`). */
export type OpsEntry = OpsCommand | { under: string; word: string; command: OpsCommand };

/** What the CLI composes from every domain before it asks a domain for commands that work across them. */
export interface ComposedOps {
  /** Every domain's values sealed under the data key. */
  sealed: readonly SealedData[];
}

export interface Domain<
  Name extends string = string,
  C extends CallTable = CallTable,
  T extends Record<string, object> = Record<never, never>,
> {
  name: Name;
  /** Its /api calls (protocol/<area>.ts): the app serves them, and the API documents list them, from here. */
  calls?: C;
  /** The migrations that create and change its tables (run by the migrator in name order with everyone's). */
  migrations?: readonly DomainMigration[];
  /**
   * Its tables as Kysely sees them, typed beside the domain (platform/db/schema.ts keeps only what is shared): the
   * same instance or transaction, seen with them.
   */
  tables?: (db: Kysely<Database>) => Kysely<Database & T>;
  /** Its own refusal messages (locales/<lang>/errors/<name>.json); keys more than one side uses stay shared. */
  errors?: DomainMessages;
  /** Its operator commands (`npm run ops -- <command>`), in help order; a function when they need other domains'. */
  ops?: readonly OpsEntry[] | ((composed: ComposedOps) => readonly OpsEntry[]);
  /** What it holds against money in users' accounts (see AccountGuard). */
  accountGuards?: readonly AccountGuard[];
  /** Who owns the orders of its traced machines (see OrderOwnership). */
  tracedOrders?: TracedOrderOwners;
  /** Values it keeps sealed under the data key: `data-key rotate` moves them, `data-key check` opens them. */
  sealed?: readonly SealedData[];
  /** Starts its running parts; a domain with no calls or jobs (only tables and commands) has none. */
  start?: (ctx: DomainContext) => DomainParts<C> | Promise<DomainParts<C>>;
}

/** Names a domain's contract; the type keeps its call table, so its start must handle every call of it. */
export const defineDomain = <
  Name extends string,
  // No calls unless it names a table: the default must not claim any path.
  C extends CallTable = Record<never, never>,
  T extends Record<string, object> = Record<never, never>,
>(
  domain: Domain<Name, C, T>,
): Domain<Name, C, T> => domain;

/** The calls of a list of domains, as one table type (each path is one domain's: compose.ts refuses a second). */
export type CallsOf<D> = UnionToIntersection<D extends Domain<string, infer C, infer _T> ? C : never>;
type UnionToIntersection<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never;
