import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { type CallPath, calls } from '../../server/domains';
import { withAccount } from '../../server/domains/account';
import { approveVerification } from '../../server/domains/identity';
import type { UserAccountType } from '../../server/ledger/accounts';
import { Ledger } from '../../server/ledger/ledger';
import { type DatabaseHandle, openSqlite } from '../../server/platform/db/connect';
import { unitsOf } from './spot-checks';
import { startSpotServer } from './spot-server';

/**
 * What the kill -9 tests of spot, options and lever share: the real server as a child process on one SQLite data
 * dir (killed with SIGKILL, restarted on the same dir, stopped cleanly), its /api as a client sees it, traders
 * registered through that API, and a crowd of clients sending requests until the kill. Each test keeps what is its
 * own: what the clients send, when to kill, and what must hold afterwards.
 */

/** The invite code the server is started with: registration asks for one. */
const INVITE = 'PLATFORM';

export interface CrashServer {
  child: ChildProcess;
  url: string;
  /** The signal that ended the process, or its exit code. */
  exited: Promise<NodeJS.Signals | number | null>;
}

/** Resolves once `check` holds, polling; fails after `limitMs` (a generous limit: the machine may be busy). */
export async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, limitMs = 60_000) {
  const end = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export interface CrashSite {
  /** The data dir every start of the server shares: what a restart must recover from. */
  dir: string;
  /** Starts the server on the data dir; resolves once it accepts requests. */
  start(): Promise<CrashServer>;
  /** The server's database file, opened beside it (the test reads and seeds it directly); closed after the tests. */
  openDatabase(): DatabaseHandle;
  /** SIGKILL: nothing the server buffered gets written. Returns when the kill was sent (ms). */
  killHard(server: CrashServer): Promise<number>;
  /** SIGTERM: a clean stop writes what the server buffered (the last ticks), so the record is complete. */
  stopCleanly(server: CrashServer): Promise<void>;
}

/**
 * A data dir for one describe's crash test and the server process on it; `name` names the seed of the simulated
 * market, so the series of ticks is the same on every start (a restart continues it). Registers its own clean-up
 * (whatever is still running is killed, the database closed, the dir removed), so call it inside `describe`.
 */
export function crashSite(name: string, market: { stepMs: number; symbols: string[] }): CrashSite {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tw-${name}-crash-`));
  const config = {
    seed: `${name}-crash`,
    // On the minute grid and fixed for the describe: every start continues the same series of ticks.
    liveStart: Math.floor(Date.now() / 60_000) * 60_000,
    stepMs: market.stepMs,
    symbols: market.symbols,
  };
  let running: CrashServer | undefined;
  let handle: DatabaseHandle | undefined;

  afterAll(async () => {
    if (running) {
      running.child.kill('SIGKILL');
      await running.exited;
    }
    await handle?.db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  return {
    dir,
    async start() {
      let resolveUrl: (url: string) => void = () => {};
      const listening = new Promise<string>((resolve) => {
        resolveUrl = resolve;
      });
      const child = startSpotServer(config, { DATA_DIR: dir, INVITE_CODE: INVITE }, (line) => {
        const [word, url] = line.split(' ');
        if (word === 'listening' && url) resolveUrl(url);
      });
      const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
        child.on('exit', (code, signal) => resolve(signal ?? code)),
      );
      const url = await Promise.race([
        listening,
        exited.then((how) => {
          throw new Error(`server exited before listening: ${how}`);
        }),
      ]);
      running = { child, url, exited };
      return running;
    },
    openDatabase() {
      handle = openSqlite(path.join(dir, 'app.db'));
      return handle;
    },
    async killHard(server) {
      server.child.kill('SIGKILL');
      const killedAt = Date.now();
      expect(await server.exited).toBe('SIGKILL');
      return killedAt;
    },
    async stopCleanly(server) {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      running = undefined;
    },
  };
}

export interface ApiReply {
  type: string | number;
  message: string;
  data?: unknown;
}

/** One /api call as the app makes it (form fields, English messages), with the method the call table gives. */
export async function call(
  server: CrashServer,
  callPath: CallPath,
  fields: Record<string, string>,
  token?: string,
): Promise<ApiReply> {
  const headers: Record<string, string> = { lang: 'en', 'content-type': 'application/x-www-form-urlencoded' };
  if (token) headers.authorization = token;
  const get = calls[callPath].method === 'GET';
  const query = new URLSearchParams(fields).toString();
  const response = await fetch(`${server.url}/api/${callPath}${get && query ? `?${query}` : ''}`, {
    method: get ? 'GET' : 'POST',
    headers,
    ...(get ? {} : { body: query }),
  });
  return (await response.json()) as ApiReply;
}

export interface TraderSession {
  token: string;
  user: { id: number };
}

/** A user registered through the API (the code read from the outbox in the database), as a client would. */
export async function registerTrader(server: CrashServer, handle: DatabaseHandle, email: string) {
  expect((await call(server, 'email_send', { email, scene: 'register' })).type).toBe('ok');
  const code = await withAccount(handle.db)
    .selectFrom('code_outbox')
    .select('code')
    .where('address', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const registered = await call(server, 'user/register', {
    type: 'email',
    email,
    code: code.code,
    password: 'secret1',
    repassword: 'secret1',
    invite_code: INVITE,
    agree: '1',
  });
  expect(registered.type, registered.message).toBe('ok');
  return registered.data as TraderSession;
}

/** Test set-up only: money straight into a user's account through the ledger, like an approved deposit. */
export async function depositDirectly(
  handle: DatabaseHandle,
  deposit: { userId: number; requestId: string; currency: string; units: number; to: UserAccountType },
) {
  await new Ledger(handle).credit({
    userId: deposit.userId,
    requestId: deposit.requestId,
    kind: 'deposit',
    currency: deposit.currency,
    amount: deposit.units,
    from: 'deposits_clearing',
    to: deposit.to,
  });
}

export interface Trader {
  id: number;
  token: string;
  account: 'real' | 'simulator';
}

/** What a trader's product account held before the first trade (USDT minor units): the sum the checks start from. */
export interface BookFunding {
  userId: number;
  book: 'real' | 'simulator';
  units: number;
}

/**
 * Traders for a product with a real and a simulator book (options, lever): even ones verified (submitted through
 * the API, approved as an operator) and funded on the real book, odd ones on the simulator book alone, granted its
 * practice funds by the product's simulator call.
 */
export async function enrolTraders(
  server: CrashServer,
  handle: DatabaseHandle,
  enrolment: {
    count: number;
    /** Tells the traders of one test from another's in the e-mail and the identity numbers. */
    name: string;
    idLetter: string;
    /** The product's account on the real book, and the USDT it is funded with. */
    account: UserAccountType;
    funds: string;
    requestId: string;
    simulatorCall: CallPath;
    simulatorFunds: string;
  },
): Promise<{ traders: Trader[]; funding: BookFunding[] }> {
  const traders: Trader[] = [];
  const funding: BookFunding[] = [];
  for (let u = 0; u < enrolment.count; u++) {
    const session = await registerTrader(server, handle, `${enrolment.name}${u}@example.com`);
    const account = u % 2 === 0 ? 'real' : 'simulator';
    traders.push({ id: session.user.id, token: session.token, account });
    if (account === 'real') {
      const submitted = await call(
        server,
        'user/real_name',
        {
          country: 'DE',
          name: 'Test Trader',
          id_number: `${enrolment.idLetter}${u}000001`,
          address: 'Street 1',
          consent: '1',
        },
        session.token,
      );
      expect(submitted.type, submitted.message).toBe('ok');
      const review = await approveVerification(handle.db, (submitted.data as { id: number }).id, {
        operator: 'test',
      });
      expect(review.ok).toBe(true);
      const units = unitsOf('USDT', enrolment.funds);
      await depositDirectly(handle, {
        userId: session.user.id,
        requestId: enrolment.requestId,
        currency: 'USDT',
        units,
        to: enrolment.account,
      });
      funding.push({ userId: session.user.id, book: 'real', units });
    } else {
      // Granted on first use (the simulator call, or the first practice trade).
      expect((await call(server, enrolment.simulatorCall, {}, session.token)).type).toBe('ok');
      funding.push({ userId: session.user.id, book: 'simulator', units: unitsOf('USDT', enrolment.simulatorFunds) });
    }
  }
  return { traders, funding };
}

/** The server's last price per symbol (currency/quotation_new), refreshed on demand. */
export interface LastPrices {
  last: Map<string, string>;
  refresh(): Promise<void>;
}

/** Resolves once the server quotes every symbol: orders placed around its price need one to start from. */
export async function firstPrices(server: CrashServer, symbols: readonly string[]): Promise<LastPrices> {
  const last = new Map<string, string>();
  const refresh = async () => {
    const quotes = await call(server, 'currency/quotation_new', {});
    for (const q of quotes.data as { symbol: string; last: string }[]) last.set(q.symbol, q.last);
  };
  await until('the first prices', async () => {
    await refresh();
    return symbols.every((s) => last.has(s)) ? true : undefined;
  });
  return { last, refresh };
}

/** One request a client sends: a call that answers with the id of what it accepted. */
export interface ClientRequest {
  path: CallPath;
  fields: Record<string, string> & { request_id: string };
  token: string | undefined;
}

export interface ClientCrowd {
  /** The id of every accepted request whose answer was read, with its request id. */
  acked: Map<number, string>;
  sent: number;
  refused: number;
  /** Refusals by message: a test that refuses too much shows why. */
  refusals: Map<string, number>;
  /** After the kill: no new requests; resolves once every client has ended. */
  stop(): Promise<void>;
}

/**
 * `clients` clients at once, each sending one request after the other, until it runs out of requests (`next`
 * answers nothing), it is stopped, or the server is gone (the kill: the request in flight may or may not have been
 * accepted, so that client ends). `next` gets the client, its request count and the crowd's; `afterReply` runs
 * after each answer (a failure there ends the client like a dead server, unless it catches it).
 */
export function startClients(
  server: CrashServer,
  clients: number,
  next: (client: number, i: number, sent: number) => ClientRequest | undefined,
  afterReply?: (i: number) => Promise<unknown> | undefined,
): ClientCrowd {
  let stopped = false;
  const crowd: ClientCrowd = {
    acked: new Map(),
    sent: 0,
    refused: 0,
    refusals: new Map(),
    stop: async () => {
      stopped = true;
      await Promise.all(running);
    },
  };
  const client = async (w: number) => {
    for (let i = 0; !stopped; i++) {
      const request = next(w, i, crowd.sent);
      if (!request) return;
      crowd.sent++;
      try {
        const reply = await call(server, request.path, request.fields, request.token);
        if (reply.type === 'ok') crowd.acked.set((reply.data as { id: number }).id, request.fields.request_id);
        else {
          crowd.refused++;
          crowd.refusals.set(reply.message, (crowd.refusals.get(reply.message) ?? 0) + 1);
        }
        await afterReply?.(i);
      } catch {
        return;
      }
    }
  };
  const running = Array.from({ length: clients }, (_, w) => client(w));
  return crowd;
}

/** A row of the table the requests went to, as the last checks read it. */
export interface RequestOutcome {
  id: number;
  request_id: string;
  /** Where it ended: its state or phase. */
  end: string;
  /** Shown when `end` is wrong (default: `end`). */
  detail?: string;
}

/**
 * Every acknowledged request is in the table under its request id and ended in one of `ends`; beyond those, at
 * most the requests in flight at the kill (one a client) were accepted without their answer being read.
 */
export function expectAcknowledgedKept(
  noun: string,
  crowd: Pick<ClientCrowd, 'acked'>,
  clients: number,
  rows: readonly RequestOutcome[],
  ends: readonly string[],
) {
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const [id, requestId] of crowd.acked) {
    const row = byId.get(id);
    expect(row?.request_id, `acknowledged ${noun} ${id}`).toBe(requestId);
    expect(ends, `${noun} ${id}: ${row?.detail ?? row?.end}`).toContain(row?.end);
  }
  expect(rows.length - crowd.acked.size).toBeGreaterThanOrEqual(0);
  expect(rows.length - crowd.acked.size).toBeLessThanOrEqual(clients);
}
