import { describe, expect, it, vi } from 'vitest';
import { SIMULATOR_FUNDS } from '../../protocol/options';
import { withOptions } from '../../server/domains/options';
import { setOptionSettings } from '../../server/domains/options/terms';
import { MarketFeed } from '../../server/market/feed';
import { INSTRUMENTS } from '../../server/market/instruments';
import { PriceRecorder } from '../../server/market/recorder';
import { MarketSimulator } from '../../server/market/simulator';
import { crashSite, enrolTraders, expectAcknowledgedKept, startClients, until } from './crash-kit';
import { DATABASES, openTestDatabase, startTestApp, uniqueEmail } from './harness';
import { checkOptionContracts, FINAL_OPTION_STATES, type OptionFunding } from './options-checks';
import { unitsOf } from './spot-checks';

/**
 * The real server (a child process on SQLite, the simulator market stepping every 100 ms) is killed with SIGKILL
 * while it settles a stream of binary option contracts (5 and 7 s periods, real and simulator books). After a restart
 * on the same data dir the engine enters, settles or cancels what was left: every acknowledged contract is there and
 * final, each settled exactly once (one settle entry, one payout entry for a win, its hold resolved, one final
 * event), with the result and payout the rule gives over the recorded ticks, every option account its funding plus
 * its payouts, and the ledger and price chain checks clean.
 */

const USERS = 6;
const WORKERS = 10;
const STEP_MS = 100;
const SYMBOLS = ['BTC', 'ETH'];
const PERIODS = [
  { seconds: 5, ratio: '0.80' },
  { seconds: 7, ratio: '0.85' },
];

describe('option contracts after a killed server (SQLite)', () => {
  const site = crashSite('options', { stepMs: STEP_MS, symbols: SYMBOLS });

  it('settles every acknowledged contract exactly once, by the rule over the record, across a kill -9', async () => {
    let server = await site.start();
    const handle = site.openDatabase();
    const db = handle.db;
    const terms = await setOptionSettings(db, (current) => ({ ...current, periods: PERIODS }), { operator: 'test' });
    expect(terms.ok).toBe(true);

    // Users through the API: half verified and funded for the real book, half on the simulator book alone.
    const { traders: users, funding } = await enrolTraders(server, handle, {
      count: USERS,
      name: 'options-crash',
      idLetter: 'T',
      account: 'option',
      funds: '100000',
      requestId: 'seed-option',
      simulatorCall: 'microtrade/simulator',
      simulatorFunds: SIMULATOR_FUNDS,
    });

    // A stream of contracts from several clients at once, until the kill.
    const clients = startClients(server, WORKERS, (w, i) => {
      const user = users[(w + i) % users.length];
      if (!user) return undefined;
      const fields = {
        symbol: SYMBOLS[i % SYMBOLS.length] ?? 'BTC',
        direction: (w + i) % 2 === 0 ? 'up' : 'down',
        seconds: String(PERIODS[(i >> 1) % PERIODS.length]?.seconds),
        stake: i % 3 === 0 ? '10.5' : '10',
        account: user.account,
        request_id: `w${w}-${i}`,
      };
      return { path: 'microtrade/submit', fields, token: user.token };
    });
    const count = async (states: readonly string[]) =>
      Number(
        (
          await withOptions(db)
            .selectFrom('option_contracts')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('state', 'in', states as never)
            .executeTakeFirstOrThrow()
        ).n,
      );
    // Kill while settlements are being written: after a random number of them, with contracts still arriving and
    // more falling due every recorder flush.
    const killAfter = 150 + Math.floor(Math.random() * 250);
    await until(
      'settlements before the kill',
      async () => ((await count(['won', 'lost', 'flat', 'refunded'])) >= killAfter ? true : undefined),
      120_000,
    );
    const killedAt = await site.killHard(server);
    await clients.stop();
    const settledAtKill = await count(FINAL_OPTION_STATES);
    const dueAtKill = Number(
      (
        await withOptions(db)
          .selectFrom('option_contracts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('state', '=', 'running')
          .where('expiry_ts', '<=', killedAt)
          .executeTakeFirstOrThrow()
      ).n,
    );
    const openAtKill = await count(['waiting', 'running']);
    expect(clients.acked.size).toBeGreaterThan(0);

    // Restart on the same data dir: the engine takes the open contracts from the database again.
    server = await site.start();
    await until(
      'no open contract',
      async () => ((await count(['waiting', 'running'])) === 0 ? true : undefined),
      120_000,
    );
    // A clean stop writes the last buffered ticks.
    await site.stopCleanly(server);

    const rows = await withOptions(db).selectFrom('option_contracts').select(['id', 'request_id', 'state']).execute();
    expectAcknowledgedKept(
      'contract',
      clients,
      WORKERS,
      rows.map((r) => ({ ...r, end: r.state })),
      FINAL_OPTION_STATES,
    );

    const check = await checkOptionContracts(handle, funding);
    expect(check.problems).toEqual([]);
    console.log(
      `options crash: ${clients.sent} sent, ${clients.acked.size} acknowledged, ${clients.refused} refused` +
        ` ${JSON.stringify([...clients.refusals])}; killed after ${settledAtKill} settlements with ${openAtKill} open` +
        ` (${dueAtKill} running past expiry); after restart ${JSON.stringify(check.states)}`,
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
    // The app's clock starts at its own real time, which a busy machine puts seconds after T0: the market follows
    // it, so each step's tick comes after everything accepted before it.
    const step = () => {
      t.clock.advance(1_000);
      marketTime = Math.max(marketTime + 1_000, t.clock.now());
      sim.advanceTo(marketTime);
    };
    const state = async (id: number) =>
      (
        await withOptions(database.handle.db)
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
      // Engine rounds in which a settlement would be wrong: every round looks at the contracts due, and the clock is
      // past E, so the first would settle in the first of them if the pinned tick counted as a complete record.
      await t.engineRounds('options-engine', 2);
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
