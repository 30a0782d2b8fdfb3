import { spawnSync } from 'node:child_process';
import { SIMULATOR_FUNDS } from '../../protocol/options';
import { initialMargin, isolatedLiquidationPrice, type LeverTerms } from '../../protocol/rules/lever';
import { fromUnits, toUnits } from '../../protocol/rules/spot';
import { type LeverTables, withLever } from '../../server/domains/lever';
import { setLeverSettings } from '../../server/domains/lever/terms';
import { type OptionsTables, withOptions } from '../../server/domains/options';
import { setOptionSettings } from '../../server/domains/options/terms';
import { type SpotTables, withSpot } from '../../server/domains/spot';
import { type DatabaseHandle, openPostgres } from '../../server/platform/db/connect';
import { type CrashServer, depositDirectly, enrolTraders, firstPrices, registerTrader } from '../integration/crash-kit';
import { checkLeverPositions, readTerms } from '../integration/lever-position-checks';
import { checkOptionContracts } from '../integration/options-checks';
import { checkSpotOrders, type Funding, priceNear, unitsOf } from '../integration/spot-checks';
import { type Cluster, openCluster, type ServerProcess, until } from './failover-cluster';
import { liveUrl, type OrderRequest, percentile, startCrowd, type Trader } from './failover-crowd';
import { openUserSocket, type TopicName, type UserSocket } from './failover-sockets';

/**
 * Failover under load (issue 24): three server processes on one PostgreSQL database and one Redis, simulated users
 * (a socket each, the app's own RealtimeSocket, and HTTP) placing spot, option and lever orders spread over all
 * three; first a stretch with no kill (the baseline), then a minute in which the process holding the trading
 * engines' and the jobs' leases is killed with SIGKILL, and 20 s later the next one. Afterwards, from the record:
 * - every lease the dead process held is taken by another within its ttl and one renewal round (plus slack);
 * - every acknowledged order is there under its request id and ended (filled, settled or closed) exactly once at the
 *   tick RULES.md names, recomputed from price_ticks (the crash tests' checks), beyond those at most the requests
 *   in flight at a kill were accepted without their answer being read;
 * - every socket of a dead process reconnected to a survivor, and what each user is shown equals the record, the
 *   server's numbering of each subscription had no gap and no repeat, and no record's end came twice;
 * - `ops ledger check` and `ops market verify` are clean.
 * Prints orders accepted per second, p50/p99 submit latency and the takeover times, beside the baseline.
 * Needs PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test: a database of its own is
 * created through it and dropped) and Redis (BENCH_REDIS_URL, default redis://127.0.0.1:6379: keys under a prefix
 * of the run, deleted after it).
 */

const SYMBOLS = ['BTC', 'ETH'];
const STEP_MS = 250;
const USERS = 6;
const BASELINE_MS = Number(process.env.BENCH_BASELINE_MS ?? 20_000);
const FAILOVER_MS = Number(process.env.BENCH_FAILOVER_MS ?? 60_000);
const PAUSE_MS = 100;
const PERIODS = [
  { seconds: 5, ratio: '0.80' },
  { seconds: 7, ratio: '0.85' },
];
const LEVERAGE = 100;
/** Just under 1/leverage, as in the lever crash test: positions leave the book within seconds. */
const MMR = '0.0098';
const QTY: Record<string, string> = { BTC: '0.0002', ETH: '0.003' };
const SPOT_FUNDS: Record<string, string> = { USDT: '1000000', BTC: '10', ETH: '100' };
/** Leases with a longer ttl (daily jobs' hourly rounds) are taken over after the run: reported, not awaited. */
const AWAITED_TTL_MS = 15_000;
/** Slack on top of ttl + one round for a busy machine (2 cores shared with other test runs). */
const SLACK_MS = 3_000;
const WATCHDOG_MS = 10 * 60_000;

const problems: string[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const cluster = await openCluster({
  adminUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  market: { seed: `failover-${process.pid}`, stepMs: STEP_MS, symbols: SYMBOLS },
});
const sockets: UserSocket[] = [];
let handle: DatabaseHandle | undefined;
// A run that hangs still ends, and takes its processes with it.
const watchdog = setTimeout(() => {
  console.error('failover bench: over its time limit');
  for (const s of cluster.servers) if (!s.dead) s.child.kill('SIGKILL');
  process.exit(1);
}, WATCHDOG_MS);
watchdog.unref();

try {
  await run(cluster);
} catch (err) {
  console.error(err);
  problems.push(`run failed: ${(err as Error).message}`);
} finally {
  for (const s of sockets) s.close();
  await handle?.db.destroy();
  await cluster.cleanUp();
  clearTimeout(watchdog);
}
if (problems.length > 0) {
  console.error(`failover: ${problems.length} problems\n  ${problems.slice(0, 50).join('\n  ')}`);
  process.exit(1);
}

async function run(cluster: Cluster): Promise<void> {
  const a = await cluster.start('a');
  handle = openPostgres({ connectionString: cluster.databaseUrl, max: 4 });
  const db = handle.db;
  await setOptionSettings(db, (current) => ({ ...current, periods: PERIODS }), { operator: 'bench' });
  await setLeverSettings(db, (current) => ({ ...current, mmr: MMR }), { operator: 'bench' });
  // The first process takes every lease; the others start once it leads the engines and the market.
  const first = ['job:spot-engine', 'job:options-engine', 'job:lever-engine', 'job:price-record', 'market:leader'];
  await until('the first process leading', () => (first.every((l) => a.leases.has(l)) ? true : undefined));
  await cluster.start('b');
  await cluster.start('c');
  const servers = cluster.servers;
  const at = (k: number) => servers[k % servers.length] as ServerProcess as unknown as CrashServer;

  // Spot traders funded like an approved deposit; option and lever traders half verified on the real book, half on
  // the simulator book (crash-kit's enrolment, through the API of one process each).
  const spotFunding: Funding[] = [];
  const spotUsers: { id: number; token: string }[] = [];
  for (let u = 0; u < USERS; u++) {
    const session = await registerTrader(at(u), handle, `failover-spot${u}@example.com`);
    const amounts: Record<string, number> = {};
    for (const [currency, amount] of Object.entries(SPOT_FUNDS)) {
      amounts[currency] = unitsOf(currency, amount);
      await depositDirectly(handle, {
        userId: session.user.id,
        requestId: `seed-${currency}`,
        currency,
        units: amounts[currency] ?? 0,
        to: 'coin',
      });
    }
    spotFunding.push({ userId: session.user.id, amounts });
    spotUsers.push({ id: session.user.id, token: session.token });
  }
  const options = await enrolTraders(at(1), handle, {
    count: USERS,
    name: 'failover-options',
    idLetter: 'F',
    account: 'option',
    funds: '1000000',
    requestId: 'seed-option',
    simulatorCall: 'microtrade/simulator',
    simulatorFunds: SIMULATOR_FUNDS,
  });
  const lever = await enrolTraders(at(2), handle, {
    count: USERS,
    name: 'failover-lever',
    idLetter: 'G',
    account: 'contract',
    funds: '1000000',
    requestId: 'seed-lever',
    simulatorCall: 'lever/simulator',
    simulatorFunds: SIMULATOR_FUNDS,
  });
  const prices = await firstPrices(at(0), SYMBOLS);
  const terms = await readTerms(db, SYMBOLS);

  const traders: Trader[] = [];
  const tokens: { token: string; userId: number; home: number }[] = [];
  spotUsers.forEach((user, u) => {
    tokens.push({ token: user.token, userId: user.id, home: u });
    traders.push({ product: 'spot', home: u, next: (i) => spotOrder(user.token, u, i) });
  });
  options.traders.forEach((user, u) => {
    tokens.push({ token: user.token, userId: user.id, home: u + 1 });
    traders.push({
      product: 'options',
      home: u + 1,
      next: (i) => ({
        path: 'microtrade/submit',
        token: user.token,
        fields: {
          symbol: SYMBOLS[i % SYMBOLS.length] ?? 'BTC',
          direction: (u + i) % 2 === 0 ? 'up' : 'down',
          seconds: String(PERIODS[(i >> 1) % PERIODS.length]?.seconds),
          stake: i % 3 === 0 ? '10.5' : '10',
          account: user.account,
          request_id: `o${u}-${i}`,
        },
      }),
    });
  });
  lever.traders.forEach((user, u) => {
    tokens.push({ token: user.token, userId: user.id, home: u + 2 });
    traders.push({ product: 'lever', home: u + 2, next: (i) => leverOrder(user, u, i) });
  });

  function spotOrder(token: string, u: number, i: number): OrderRequest | undefined {
    const symbol = SYMBOLS[i % SYMBOLS.length] ?? 'BTC';
    const side = (u + (i >> 1)) % 2 === 0 ? 'buy' : 'sell';
    const fields: OrderRequest['fields'] = { symbol, side, qty: QTY[symbol] ?? '1', request_id: `s${u}-${i}` };
    const last = prices.last.get(symbol);
    if (i % 3 === 0 || last === undefined) fields.type = 'market';
    else {
      // A limit well through the price: it fills at its entry tick like a market order, at a price no worse.
      fields.type = 'limit';
      fields.price = priceNear(symbol, last, side === 'buy' ? 500 : -500);
    }
    return { path: 'coin/trade', fields, token };
  }

  function leverOrder(user: { token: string; account: string }, u: number, i: number): OrderRequest | undefined {
    const symbol = SYMBOLS[i % SYMBOLS.length] ?? 'BTC';
    const side = (u + (i >> 1)) % 2 === 0 ? 'long' : 'short';
    const lots = 1 + (i % 5);
    const fields: OrderRequest['fields'] = {
      symbol,
      side,
      type: 'market',
      margin_mode: 'isolated',
      lots: String(lots),
      leverage: String(LEVERAGE),
      account: user.account,
      request_id: `l${u}-${i}`,
    };
    const t = terms.get(symbol) as LeverTerms;
    const reference = prices.last.get(symbol);
    const ref = reference === undefined ? null : toUnits(reference, t.priceScale);
    if (ref !== null) {
      // As in the lever crash test: a take-profit one to three times the liquidation distance the other way, and
      // one in five with a stop-loss halfway, so every position leaves the book within seconds.
      const margin = initialMargin(BigInt(lots), ref, LEVERAGE, t);
      const lp = isolatedLiquidationPrice({ side, lots: BigInt(lots), entry: ref, margin, terms: t }) ?? 0n;
      const d = ref > lp ? ref - lp : lp - ref;
      const far = BigInt(1 + (i % 3)) * d;
      fields.take_profit = fromUnits(side === 'long' ? ref + far : ref - far, t.priceScale);
      if (i % 5 === 4) fields.stop_loss = fromUnits(side === 'long' ? ref - d / 2n : ref + d / 2n, t.priceScale);
    }
    return { path: 'lever/submit', fields, token: user.token };
  }

  // A socket per user at its home process, each following its three record topics.
  for (const t of tokens) sockets.push(openUserSocket(t.token, { url: () => liveUrl(servers, t.home) }));
  const topics: TopicName[] = ['orders', 'options', 'positions'];
  await until('every socket subscribed', () =>
    sockets.every((s) => topics.every((n) => s.views[n].snapshots > 0)) ? true : undefined,
  );

  let replies = 0;
  const crowd = startCrowd(
    traders,
    () => servers,
    PAUSE_MS,
    () =>
      // Fresh reference prices now and then (the spot limits and lever prices are placed around them).
      ++replies % 20 === 0 ? prices.refresh().catch(() => undefined) : undefined,
  );
  const baselineStart = Date.now();
  await sleep(BASELINE_MS);
  crowd.phase = 'failover';
  const failoverStart = Date.now();
  const baselineSeconds = (failoverStart - baselineStart) / 1000;

  // Kill the process that holds the spot engine's lease (the first: every lease), then later the next holder.
  const takeovers: Promise<string[]>[] = [];
  const victims: string[] = [];
  for (const killAt of [FAILOVER_MS / 3, (2 * FAILOVER_MS) / 3]) {
    await sleep(Math.max(0, failoverStart + killAt - Date.now()));
    // The second kill waits for the first takeover of the spot engine if it is still under way.
    const victim = await until('a process holding the spot engine lease', () =>
      servers.find((s) => !s.dead && s.leases.has('job:spot-engine')),
    );
    const held = [...victim.leases];
    const ttls = new Map(
      cluster.leaseLog.filter((c) => c.process === victim.name && c.held).map((c) => [c.name, c.ttlMs]),
    );
    const killedAt = await cluster.killHard(victim);
    victims.push(`${victim.name} (held ${held.length} leases)`);
    takeovers.push(watchTakeover(cluster, victim.name, held, ttls, killedAt));
  }
  await sleep(Math.max(0, failoverStart + FAILOVER_MS - Date.now()));
  await crowd.stop();
  const failoverSeconds = (Date.now() - failoverStart) / 1000;
  const takeoverLines = (await Promise.all(takeovers)).flat();

  // Drain: everything accepted ends (fills, settlements, closes) on the survivor.
  const open = async () => {
    const count = async (
      table: 'spot_orders' | 'option_contracts' | 'lever_positions',
      column: string,
      states: string[],
    ) =>
      Number(
        (
          await db
            .withTables<SpotTables & OptionsTables & LeverTables>()
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where(column as never, 'in', states as never)
            .executeTakeFirstOrThrow()
        ).n,
      );
    return (
      (await count('spot_orders', 'state', ['waiting', 'pending'])) +
      (await count('option_contracts', 'state', ['waiting', 'running'])) +
      (await count('lever_positions', 'phase', ['waiting', 'pending', 'holding', 'closing']))
    );
  };
  await until('nothing open', async () => ((await open()) === 0 ? true : undefined), 180_000);

  // What each user is shown settles on the record (the relay reads every second; holes wait up to 10 s).
  const record = await recordByUser(db);
  const viewProblems = () => sockets.flatMap((s, k) => viewMismatch(s, record, tokens[k]?.userId ?? 0));
  await until('the sockets showing the record', () => (viewProblems().length === 0 ? true : undefined), 30_000).catch(
    () => problems.push(...viewProblems().slice(0, 20)),
  );
  const survivor = servers.find((s) => !s.dead);
  const dead = new Set(servers.filter((s) => s.dead).map((s) => s.url));
  let moved = 0;
  sockets.forEach((s, k) => {
    for (const name of topics) {
      const v = s.views[name];
      if (v.gaps || v.repeats) problems.push(`user ${tokens[k]?.userId} ${name}: ${v.gaps} gaps, ${v.repeats} repeats`);
      for (const [id, n] of v.finals)
        if (n > 1) problems.push(`user ${tokens[k]?.userId} ${name} ${id}: ended ${n} times`);
    }
    const home = s.served[0];
    if (home && dead.has(home)) {
      moved++;
      const last = s.served.at(-1);
      if (!last || dead.has(last)) problems.push(`user ${tokens[k]?.userId}: socket did not reach a survivor`);
    }
  });
  const resyncs = sockets.reduce((n, s) => n + s.resyncs(), 0);
  const dropped = sockets.reduce((n, s) => n + topics.reduce((m, t) => m + s.views[t].dropped.size, 0), 0);
  for (const s of sockets) s.close();
  sockets.length = 0;
  if (survivor) await cluster.stopCleanly(survivor);

  // The record: every acknowledged order kept and ended once, at the rule's tick.
  const inFlight = crowd.inFlight;
  await expectKept(db, 'spot_orders', 'state', crowd.acked.spot, inFlight.spot, ['completed']);
  await expectKept(db, 'option_contracts', 'state', crowd.acked.options, inFlight.options, [
    'won',
    'lost',
    'flat',
    'refunded',
    'cancelled',
  ]);
  await expectKept(db, 'lever_positions', 'phase', crowd.acked.lever, inFlight.lever, ['closed', 'cancelled']);
  problems.push(...(await checkSpotOrders(handle, spotFunding)).problems);
  const optionCheck = await checkOptionContracts(handle, options.funding);
  problems.push(...optionCheck.problems);
  problems.push(...(await checkLeverPositions(handle, lever.funding)).problems);
  for (const args of [
    ['ledger', 'check'],
    ['market', 'verify'],
  ]) {
    const cli = spawnSync(process.execPath, ['--import', 'tsx', 'server/ops/cli.ts', ...args], {
      env: { ...process.env, DATABASE_URL: cluster.databaseUrl },
      encoding: 'utf8',
    });
    if (cli.status !== 0) problems.push(`ops ${args.join(' ')}: exit ${cli.status}: ${cli.stdout}${cli.stderr}`);
  }

  // The figures.
  const figures = (phase: string, seconds: number) => {
    const mine = crowd.submissions.filter((s) => s.phase === phase);
    const accepted = mine.filter((s) => s.ok).length;
    const ms = mine.map((s) => s.ms);
    // Rates and latencies for the printout: measurements, never money or prices.
    return `${(accepted / seconds).toFixed(1)} orders/s accepted (${accepted} in ${seconds.toFixed(0)} s), submit p50 ${percentile(ms, 50).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms`;
  };
  const acked = crowd.acked.spot.size + crowd.acked.options.size + crowd.acked.lever.size;
  console.log(`three processes on PostgreSQL + Redis, ${traders.length} users (HTTP + a socket each)`);
  console.log(`  baseline (no kill):         ${figures('baseline', baselineSeconds)}`);
  console.log(`  with two kill -9:           ${figures('failover', failoverSeconds)}`);
  console.log(`  killed: ${victims.join(', then ')}`);
  for (const line of takeoverLines) console.log(`  takeover ${line}`);
  console.log(
    `  acknowledged ${acked} (spot ${crowd.acked.spot.size}, options ${crowd.acked.options.size}, lever ${crowd.acked.lever.size}),` +
      ` refused ${[...crowd.refusals.values()].reduce((n, x) => n + x, 0)} ${JSON.stringify([...crowd.refusals])},` +
      ` answers lost in a kill ${inFlight.spot + inFlight.options + inFlight.lever}`,
  );
  console.log(
    `  sockets: ${moved} of ${tokens.length} moved off a dead process; ${resyncs} gap resyncs;` +
      ` ${dropped} records ended while their socket was away (the full list on resubscribe dropped them)`,
  );
  console.log(`  checks: ${problems.length === 0 ? 'clean' : `${problems.length} problems`}`);
}

/** When each lease the victim held is held by another process; a problem when later than ttl + a round + slack. */
async function watchTakeover(
  cluster: Cluster,
  victim: string,
  held: string[],
  ttls: Map<string, number>,
  killedAt: number,
): Promise<string[]> {
  const lines: string[] = [];
  for (const name of held.sort()) {
    const ttl = ttls.get(name) ?? 5_000;
    if (ttl > AWAITED_TTL_MS) {
      lines.push(`${name} of ${victim}: not awaited (ttl ${ttl / 1000} s)`);
      continue;
    }
    // The ttl, the successor's next try (its round: at most a third of the ttl), and slack for a busy machine.
    const bound = ttl + Math.ceil(ttl / 3) + SLACK_MS;
    const taken = await until(
      `${name} taken over`,
      () => cluster.leaseLog.find((c) => c.name === name && c.held && c.at >= killedAt && c.process !== victim),
      bound + 5_000,
    ).catch(() => undefined);
    if (!taken) {
      problems.push(`${name}: nobody took it within ${bound} ms of killing ${victim}`);
      continue;
    }
    const ms = taken.at - killedAt;
    if (ms > bound) problems.push(`${name}: taken after ${ms} ms, over ${bound} ms`);
    lines.push(`${name} of ${victim}: ${taken.process} after ${ms} ms (bound ${bound} ms)`);
  }
  return lines;
}

type Db = DatabaseHandle['db'];
type RecordEnds = Map<string, string>;

/** Every record's end by `<topic>/<user>/<id>`. */
async function recordByUser(db: Db): Promise<RecordEnds> {
  const ends: RecordEnds = new Map();
  for (const r of await withSpot(db).selectFrom('spot_orders').select(['id', 'user_id', 'state']).execute())
    ends.set(`orders/${r.user_id}/${r.id}`, r.state);
  for (const r of await withOptions(db).selectFrom('option_contracts').select(['id', 'user_id', 'state']).execute())
    ends.set(`options/${r.user_id}/${r.id}`, r.state);
  for (const r of await withLever(db).selectFrom('lever_positions').select(['id', 'user_id', 'phase']).execute())
    ends.set(`positions/${r.user_id}/${r.id}`, r.phase);
  return ends;
}

/** Where what the user is shown differs from the record (nothing is open any more). */
function viewMismatch(socket: UserSocket, record: RecordEnds, userId: number): string[] {
  const out: string[] = [];
  for (const name of ['orders', 'options', 'positions'] as TopicName[]) {
    for (const shown of socket.views[name].shown.values()) {
      const end = record.get(`${name}/${userId}/${shown.id}`);
      if (end !== shown.end) out.push(`user ${userId} ${name} ${shown.id}: shown ${shown.end}, recorded ${end}`);
    }
  }
  return out;
}

/** Every acknowledged id is there under its request id and ended; beyond them only answers lost in a kill. */
async function expectKept(
  db: Db,
  table: 'spot_orders' | 'option_contracts' | 'lever_positions',
  column: 'state' | 'phase',
  acked: Map<number, string>,
  inFlight: number,
  ends: readonly string[],
): Promise<void> {
  const rows = (await db
    .withTables<SpotTables & OptionsTables & LeverTables>()
    .selectFrom(table)
    .select(['id', 'request_id', column as never])
    .execute()) as unknown as { id: number; request_id: string; state?: string; phase?: string }[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const [id, requestId] of acked) {
    const row = byId.get(id);
    if (row?.request_id !== requestId)
      problems.push(`${table} ${id}: acknowledged as ${requestId}, recorded ${row?.request_id}`);
    const end = row?.state ?? row?.phase;
    if (!end || !ends.includes(end)) problems.push(`${table} ${id}: ended ${end}`);
  }
  const unanswered = rows.length - acked.size;
  if (unanswered < 0 || unanswered > inFlight) {
    problems.push(`${table}: ${unanswered} accepted without an answer read, ${inFlight} answers lost in a kill`);
  }
}
