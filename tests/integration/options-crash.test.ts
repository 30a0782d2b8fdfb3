import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type CallPath, calls } from '../../protocol';
import { SIMULATOR_FUNDS } from '../../protocol/options';
import { approveVerification } from '../../server/domains/identity';
import { setOptionSettings } from '../../server/domains/options/terms';
import { Ledger } from '../../server/ledger/ledger';
import { MarketFeed } from '../../server/market/feed';
import { INSTRUMENTS } from '../../server/market/instruments';
import { PriceRecorder } from '../../server/market/recorder';
import { MarketSimulator } from '../../server/market/simulator';
import { type DatabaseHandle, openSqlite } from '../../server/platform/db/connect';
import { DATABASES, openTestDatabase, startTestApp, uniqueEmail } from './harness';
import { checkOptionContracts, FINAL_OPTION_STATES, type OptionFunding } from './options-checks';
import { unitsOf } from './spot-checks';
import { type SpotServerConfig, startSpotServer } from './spot-server';

/**
 * The real server (a child process on SQLite, the simulator market stepping every 100 ms) is killed with SIGKILL
 * while it settles a stream of binary option contracts (5 and 7 s periods, real and simulator books). After a restart
 * on the same data dir the engine enters, settles or cancels what was left: every acknowledged contract is there and
 * final, each settled exactly once (one settle entry, one payout entry for a win, its hold resolved, one final
 * event), with the result and payout the rule gives over the recorded ticks, every option account its funding plus
 * its payouts, and the ledger and price chain checks clean.
 */

const INVITE = 'PLATFORM';
const USERS = 6;
const WORKERS = 10;
const STEP_MS = 100;
const SYMBOLS = ['BTC', 'ETH'];
const PERIODS = [
  { seconds: 5, ratio: '0.80' },
  { seconds: 7, ratio: '0.85' },
];

interface Server {
  child: ChildProcess;
  url: string;
  exited: Promise<NodeJS.Signals | number | null>;
}

/** Resolves once `check` holds, polling; fails after `limitMs` (a generous limit: the machine may be busy). */
async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, limitMs = 60_000) {
  const end = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('option contracts after a killed server (SQLite)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-options-crash-'));
  const config: SpotServerConfig = {
    seed: 'options-crash',
    liveStart: Math.floor(Date.now() / 60_000) * 60_000,
    stepMs: STEP_MS,
    symbols: SYMBOLS,
  };
  let running: Server | undefined;
  let handle: DatabaseHandle | undefined;

  afterAll(async () => {
    if (running) {
      running.child.kill('SIGKILL');
      await running.exited;
    }
    await handle?.db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function start(): Promise<Server> {
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
  }

  async function call(server: Server, callPath: CallPath, fields: Record<string, string>, token?: string) {
    const headers: Record<string, string> = { lang: 'en', 'content-type': 'application/x-www-form-urlencoded' };
    if (token) headers.authorization = token;
    const get = calls[callPath].method === 'GET';
    const query = new URLSearchParams(fields).toString();
    const response = await fetch(`${server.url}/api/${callPath}${get && query ? `?${query}` : ''}`, {
      method: get ? 'GET' : 'POST',
      headers,
      ...(get ? {} : { body: query }),
    });
    return (await response.json()) as { type: string | number; message: string; data?: unknown };
  }

  it('settles every acknowledged contract exactly once, by the rule over the record, across a kill -9', async () => {
    let server = await start();
    handle = openSqlite(path.join(dir, 'app.db'));
    const db = handle.db;
    const ledger = new Ledger(handle);
    const terms = await setOptionSettings(db, (current) => ({ ...current, periods: PERIODS }), { operator: 'test' });
    expect(terms.ok).toBe(true);

    // Users through the API: half verified and funded for the real book, half on the simulator book alone.
    const users: { id: number; token: string; account: 'real' | 'simulator' }[] = [];
    const funding: OptionFunding[] = [];
    for (let u = 0; u < USERS; u++) {
      const email = `options-crash${u}@example.com`;
      expect((await call(server, 'email_send', { email, scene: 'register' })).type).toBe('ok');
      const code = await db
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
      const session = registered.data as { token: string; user: { id: number } };
      const account = u % 2 === 0 ? 'real' : 'simulator';
      users.push({ id: session.user.id, token: session.token, account });
      if (account === 'real') {
        const submitted = await call(
          server,
          'user/real_name',
          { country: 'DE', name: 'Test Trader', id_number: `T${u}000001`, address: 'Street 1', consent: '1' },
          session.token,
        );
        expect(submitted.type, submitted.message).toBe('ok');
        const review = await approveVerification(db, (submitted.data as { id: number }).id, { operator: 'test' });
        expect(review.ok).toBe(true);
        const units = unitsOf('USDT', '100000');
        await ledger.credit({
          userId: session.user.id,
          requestId: 'seed-option',
          kind: 'deposit',
          currency: 'USDT',
          amount: units,
          from: 'deposits_clearing',
          to: 'option',
        });
        funding.push({ userId: session.user.id, book: 'real', units });
      } else {
        // Granted on first use (microtrade/simulator, or the first practice contract).
        expect((await call(server, 'microtrade/simulator', {}, session.token)).type).toBe('ok');
        funding.push({ userId: session.user.id, book: 'simulator', units: unitsOf('USDT', SIMULATOR_FUNDS) });
      }
    }

    // A stream of contracts from several clients at once, until the kill.
    const acked = new Map<number, string>();
    let sent = 0;
    let refused = 0;
    let stop = false;
    const refusals = new Map<string, number>();
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const user = users[(w + i) % users.length];
        if (!user) return;
        const fields: Record<string, string> = {
          symbol: SYMBOLS[i % SYMBOLS.length] ?? 'BTC',
          direction: (w + i) % 2 === 0 ? 'up' : 'down',
          seconds: String(PERIODS[(i >> 1) % PERIODS.length]?.seconds),
          stake: i % 3 === 0 ? '10.5' : '10',
          account: user.account,
          request_id: `w${w}-${i}`,
        };
        sent++;
        try {
          const reply = await call(server, 'microtrade/submit', fields, user.token);
          if (reply.type === 'ok') acked.set((reply.data as { id: number }).id, fields.request_id ?? '');
          else {
            refused++;
            refusals.set(reply.message, (refusals.get(reply.message) ?? 0) + 1);
          }
        } catch {
          // The server is gone (the kill): this request may or may not have been accepted.
          return;
        }
      }
    };
    const count = async (states: readonly string[]) =>
      Number(
        (
          await db
            .selectFrom('option_contracts')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('state', 'in', states as never)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const workers = Array.from({ length: WORKERS }, (_, w) => worker(w));
    // Kill while settlements are being written: after a random number of them, with contracts still arriving and
    // more falling due every recorder flush.
    const killAfter = 150 + Math.floor(Math.random() * 250);
    await until(
      'settlements before the kill',
      async () => ((await count(['won', 'lost', 'flat', 'refunded'])) >= killAfter ? true : undefined),
      120_000,
    );
    server.child.kill('SIGKILL');
    const killedAt = Date.now();
    expect(await server.exited).toBe('SIGKILL');
    stop = true;
    await Promise.all(workers);
    const settledAtKill = await count(FINAL_OPTION_STATES);
    const dueAtKill = Number(
      (
        await db
          .selectFrom('option_contracts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('state', '=', 'running')
          .where('expiry_ts', '<=', killedAt)
          .executeTakeFirstOrThrow()
      ).n,
    );
    const openAtKill = await count(['waiting', 'running']);
    expect(acked.size).toBeGreaterThan(0);

    // Restart on the same data dir: the engine takes the open contracts from the database again.
    server = await start();
    await until(
      'no open contract',
      async () => ((await count(['waiting', 'running'])) === 0 ? true : undefined),
      120_000,
    );
    // A clean stop writes the last buffered ticks.
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    running = undefined;

    const rows = await db.selectFrom('option_contracts').select(['id', 'request_id', 'state']).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const [id, requestId] of acked) {
      const contract = byId.get(id);
      expect(contract?.request_id, `acknowledged contract ${id}`).toBe(requestId);
      expect(FINAL_OPTION_STATES, `contract ${id}: ${contract?.state}`).toContain(contract?.state);
    }
    // At most the requests in flight at the kill were accepted without their answer being read.
    expect(rows.length - acked.size).toBeGreaterThanOrEqual(0);
    expect(rows.length - acked.size).toBeLessThanOrEqual(WORKERS);

    const check = await checkOptionContracts(handle, funding);
    expect(check.problems).toEqual([]);
    console.log(
      `options crash: ${sent} sent, ${acked.size} acknowledged, ${refused} refused ${JSON.stringify([...refusals])};` +
        ` killed after ${settledAtKill} settlements with ${openAtKill} open (${dueAtKill} running past expiry);` +
        ` after restart ${JSON.stringify(check.states)}`,
    );
  }, 300_000);
});

/**
 * The narrow case behind "by the rule over the record" above, made certain: the recorder writes the feed's ticks in
 * batches, but a tick that a fill or an entry uses is recorded at once (pinned) ahead of them. A contract entering
 * after another one's expiry E must not make the record look complete up to E while the ticks just before E are
 * still in the recorder's buffer: the first contract settles only once they are recorded, and with the exit they
 * give.
 */
describe.each(DATABASES)('a contract whose expiry a later pinned tick passes on %s', (kind) => {
  it('settles only once the record holds every tick up to its expiry', async () => {
    const database = await openTestDatabase(kind);
    const T0 = Date.now();
    const sim = new MarketSimulator({
      seed: 'options-pinned-ahead',
      now: () => T0,
      backfillDays: 0,
      alwaysOpen: true,
      stepMs: 1_000,
      instruments: INSTRUMENTS.filter((i) => i.symbol === 'BTC'),
    });
    const feed = new MarketFeed(sim, () => T0);
    sim.advanceTo(T0);
    const t = await startTestApp(database.handle, { market: { feed, record: false } });
    // The record is written by this recorder, flushed by hand (the app records nothing itself).
    const recorder = new PriceRecorder(database.handle, feed, { now: t.clock.now });
    let marketTime = T0;
    const step = () => {
      t.clock.advance(1_000);
      marketTime += 1_000;
      sim.advanceTo(marketTime);
    };
    const state = async (id: number) =>
      (
        await database.handle.db
          .selectFrom('option_contracts')
          .select(['state'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).state;
    try {
      const funding: OptionFunding[] = [];
      const buy = async (requestId: string) => {
        const session = await t.registerByEmail(uniqueEmail('pinned-ahead'));
        funding.push({ userId: session.user.id, book: 'simulator', units: unitsOf('USDT', SIMULATOR_FUNDS) });
        const { body } = await t.call(
          'microtrade/submit',
          { symbol: 'BTC', direction: 'up', seconds: '30', stake: '10', account: 'simulator', request_id: requestId },
          { token: session.token },
        );
        expect(body.type, JSON.stringify(body)).toBe('ok');
        return (body.data as { id: number }).id;
      };
      const first = await buy('first');
      step();
      await vi.waitFor(async () => expect(await state(first)).toBe('running'), { timeout: 20_000, interval: 20 });
      await recorder.flush();
      // Up to E: the ticks after the entry are only in the recorder's buffer.
      for (let k = 0; k < 30; k++) step();
      const second = await buy('second');
      // The second contract's entry tick (after E) is pinned, so recorded, at once.
      step();
      await vi.waitFor(async () => expect(await state(second)).toBe('running'), { timeout: 20_000, interval: 20 });
      // Time for engine rounds in which a settlement would be wrong (not an assertion: it must not settle here).
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await state(first)).toBe('running');
      await recorder.flush();
      await vi.waitFor(async () => expect(await state(first)).not.toBe('running'), { timeout: 20_000, interval: 20 });
      const check = await checkOptionContracts(database.handle, funding);
      expect(check.problems).toEqual([]);
    } finally {
      await t.close();
      await recorder.close();
      feed.close();
      await database.close();
    }
  });
});
