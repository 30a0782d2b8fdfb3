import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import { type AppOptions, buildApp } from '../../server/app';
import { type CallPath, calls } from '../../server/domains';
import { withAccount } from '../../server/domains/account';
import { ensurePlatformInviteCode } from '../../server/domains/account/invite';
import { migrateToLatest } from '../../server/migrations';
import { type DatabaseHandle, openSqlite } from '../../server/platform/db/connect';
import { openPostgresSchema } from '../../server/testing';
import { type EngineLoop, liveEngines } from '../../server/trading/engine-loop';

/**
 * Shared set-up for the integration tests: a fresh database per test file (SQLite always, PostgreSQL too when
 * TEST_DATABASE_URL is set), the real app from buildApp with a movable clock, and small request helpers.
 */

export type DatabaseKind = 'sqlite' | 'postgres';

/** The databases to run every suite against: `describe.each(DATABASES)`. */
export const DATABASES: DatabaseKind[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export const PLATFORM_INVITE = 'PLATFORM';
/** Cheap argon2 so a suite hashes hundreds of passwords in well under a second. */
export const TEST_HASH_COST = { memoryCost: 256, timeCost: 1 };
const HOUR = 3_600_000;
/** Generous per-IP limits: every request in a suite comes from the same address unless a test says otherwise. */
export const LOOSE_LIMITS: AppOptions['limits'] = {
  codePerIp: { max: 10_000, windowMs: HOUR },
  loginPerIp: { max: 10_000, windowMs: HOUR },
};

export interface TestDatabase {
  handle: DatabaseHandle;
  close(): Promise<void>;
}

/** A migrated, empty database of `kind` that disappears on close (temp dir, or a throwaway PG schema). */
export async function openTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-it-'));
    const handle = openSqlite(path.join(dir, 'app.db'));
    await migrateToLatest(handle);
    return {
      handle,
      async close() {
        await handle.db.destroy();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const database = await openPostgresSchema(url);
  await migrateToLatest(database.handle);
  return database;
}

/** A clock the test moves by hand; starts at the real time so stored values look like real ones. */
export class TestClock {
  private t = Date.now();
  readonly now = () => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

export interface CallOptions {
  token?: string;
  lang?: string;
  ip?: string;
  /** Send the fields as JSON instead of a form. */
  json?: boolean;
  /** The User-Agent header, as a browser sends it. */
  userAgent?: string;
  /** The Host header (any client may send any). */
  host?: string;
}

export interface Envelope {
  type: string | number;
  code: number;
  message: string;
  field?: string;
  /** A business refusal's errors-table key. */
  reason?: string;
  data?: unknown;
}

export interface CallResult {
  status: number;
  body: Envelope;
}

export class TestApp {
  constructor(
    readonly app: FastifyInstance,
    readonly handle: DatabaseHandle,
    readonly clock: TestClock,
    /** The trading engines this app built (none without a market). */
    readonly engines: readonly EngineLoop[] = [],
  ) {}

  /**
   * Waits until the engine `name` ('spot-engine', 'options-engine', 'lever-engine') has run `count` rounds queued
   * after this call: then it leads and has acted on every tick and order that came before. What a "nothing happened"
   * check waits for instead of a sleep. The deadline only turns a stuck engine into a clear failure.
   */
  async engineRounds(name: string, count = 1, timeoutMs = 15_000): Promise<void> {
    const engine = this.engines.find((e) => e.name === name);
    if (!engine) throw new Error(`this app has no ${name}`);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${name} ran no ${count} round(s) in ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([engine.afterRounds(count), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  get db() {
    return this.handle.db;
  }

  /** Calls /api/<path> the way the client does: the call's method, form-encoded fields, lang and token headers. */
  async call(callPath: CallPath, fields: Record<string, string> = {}, options: CallOptions = {}): Promise<CallResult> {
    const { method } = calls[callPath];
    const headers: Record<string, string> = { lang: options.lang ?? 'en' };
    if (options.token !== undefined) headers.authorization = options.token;
    if (options.userAgent !== undefined) headers['user-agent'] = options.userAgent;
    if (options.host !== undefined) headers.host = options.host;
    const query = new URLSearchParams(fields).toString();
    let payload: string | undefined;
    if (method !== 'GET') {
      headers['content-type'] = options.json ? 'application/json' : 'application/x-www-form-urlencoded';
      payload = options.json ? JSON.stringify(fields) : query;
    }
    const response = await this.app.inject({
      method,
      url: method === 'GET' && query ? `/api/${callPath}?${query}` : `/api/${callPath}`,
      headers,
      payload,
      remoteAddress: options.ip ?? '127.0.0.1',
    });
    return { status: response.statusCode, body: response.json<Envelope>() };
  }

  /** The newest code delivered to `address`, exactly as the e2e tests read it. */
  async latestCode(address: string): Promise<string | undefined> {
    const result = await sql<{
      code: string;
    }>`select code from code_outbox where address = ${address} order by id desc limit 1`.execute(this.db);
    return result.rows[0]?.code;
  }

  async count(table: 'users' | 'sessions' | 'code_outbox' | 'verification_codes'): Promise<number> {
    const row = await withAccount(this.db)
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Sends a register code by e-mail and registers with it; returns the session token and user. */
  async registerByEmail(email: string, password = 'secret1', extra: Record<string, string> = {}) {
    const sent = await this.call('email_send', { email, scene: 'register' });
    if (sent.body.type !== 'ok') throw new Error(`email_send failed: ${sent.body.message}`);
    const code = await this.latestCode(email.toLowerCase());
    const result = await this.call('user/register', {
      type: 'email',
      email,
      code: code ?? '',
      password,
      repassword: password,
      invite_code: PLATFORM_INVITE,
      agree: '1',
      ...extra,
    });
    return sessionOf(result);
  }

  /** Same by phone (area code 49 unless given). */
  async registerByPhone(mobile: string, password = 'secret1', area = '49') {
    const sent = await this.call('sms_send', { area_code: area, mobile, scene: 'register' });
    if (sent.body.type !== 'ok') throw new Error(`sms_send failed: ${sent.body.message}`);
    const code = await this.latestCode(`+${area}${mobile.replace(/^0/, '')}`);
    const result = await this.call('user/register', {
      type: 'mobile',
      area_code: area,
      mobile,
      code: code ?? '',
      password,
      repassword: password,
      invite_code: PLATFORM_INVITE,
      agree: '1',
    });
    return sessionOf(result);
  }

  close(): Promise<void> {
    return this.app.close();
  }
}

interface SessionData {
  token: string;
  user: { id: number; username: string; invite_code: string };
}

function sessionOf(result: CallResult): SessionData {
  if (result.body.type !== 'ok') throw new Error(`register failed: ${result.body.message}`);
  return result.body.data as SessionData;
}

/** The app on `database` with test defaults (cheap hashing, loose per-IP limits, no static files, a test clock). */
export async function startTestApp(database: DatabaseHandle, options: Partial<AppOptions> = {}): Promise<TestApp> {
  const clock = new TestClock();
  await ensurePlatformInviteCode(database.db, PLATFORM_INVITE);
  // The engines alive before the build belong to other apps of this file; the new ones are this app's.
  const earlier = new Set(liveEngines());
  const app = await buildApp({
    database,
    now: clock.now,
    hashCost: TEST_HASH_COST,
    staticDir: false,
    ...options,
    limits: { ...LOOSE_LIMITS, ...options.limits },
  });
  return new TestApp(
    app,
    database,
    clock,
    liveEngines().filter((e) => !earlier.has(e)),
  );
}

/** Unique addresses per call (each test file has its own database), so tests never share accounts or limits. */
let serial = 0;
export const uniqueEmail = (tag = 'user') => `${tag}${++serial}@example.com`;
/** A unique German mobile number, national form without trunk zero; its address is `+49<number>`. */
export const uniqueMobile = () => `1510${String(++serial).padStart(7, '0')}`;

/**
 * The usual suite set-up: a fresh database of `kind` and the app on it before the suite's tests, both closed after.
 * `use` receives the app (assign it to the suite's `t`).
 */
export function appPerSuite(kind: DatabaseKind, use: (app: TestApp) => void, options: Partial<AppOptions> = {}): void {
  let database: TestDatabase | undefined;
  let app: TestApp | undefined;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    app = await startTestApp(database.handle, options);
    use(app);
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });
}

/** One route the app serves: its full path and methods (HEAD beside GET included). */
export interface RegisteredRoute {
  path: string;
  methods: string[];
}

/**
 * Every route the app serves, read from Fastify's own route tree (`printRoutes` prints one node a line, each level
 * indented by four characters, a node's path relative to its parent's), so a route registered anywhere is found.
 */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  const stack: string[] = [];
  const routes = new Map<string, Set<string>>();
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const node = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \((.+)\))?$/.exec(line);
    if (!node) continue;
    const depth = (node[1] ?? '').length / 4;
    stack.length = depth;
    const full = (stack[depth - 1] ?? '') + (node[2] ?? '');
    stack.push(full);
    if (!node[3]) continue;
    const methods = routes.get(full) ?? new Set<string>();
    for (const method of node[3].split(',')) methods.add(method.trim());
    routes.set(full, methods);
  }
  return [...routes].map(([path, methods]) => ({ path, methods: [...methods].sort() }));
}
