import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  CapturedMessage,
  ClientResults,
  FromClients,
  FromServer,
  ServerMode,
  ServerUsage,
  ToClients,
  ToServer,
} from './fanout-shared';
import { Peer, percentile, sleep, TOPIC } from './fanout-shared';

/**
 * Fan-out of the `quotes` topic to many socket.io clients on loopback (issue 3):
 * - product: the real app (buildApp on SQLite, the seeded market feed with stocks always open, prices recorded)
 *   with every client subscribed to `quotes`;
 * - baseline: a bare socket.io server io.emit()ting, in a loop and with the same timing, the very updates the
 *   product sent while measuring (one client keeps them), so the product's figures read as ratios to plain
 *   socket.io on this machine.
 * The server runs alone in its process (its CPU is process.cpuUsage there); the clients share a few others.
 * Latency is client receipt Date.now() minus the message's server `ts`: same clock, whole milliseconds, and it
 * includes the time a client process needs to get through the hundreds of sockets that receive each message.
 * The rate is whatever the product sends: `quotes` is flushed every 250 ms but only when a coin ticked (or as a
 * heartbeat when quiet), and the simulator steps once a second, so in practice one update a second per client.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENTS = Number(process.env.FANOUT_CLIENTS ?? 1000);
/** Client processes: one per core; more only when the open-file limit asks for it. */
const CLIENT_PROCESSES = 2;
/** After the server is up and before its idle CPU is measured (start-up work tails off). */
const SETTLE_MS = 1000;
const IDLE_SECONDS = 2;
const WARMUP_SECONDS = 2;
const TARGET_P99_MS = 100;
/** File descriptors a process needs beside its sockets (stdio, IPC, SQLite, tsx, …). */
const FD_HEADROOM = 64;
const STARTUP_MS = 60_000;
const REPLY_MS = 10_000;

const SERVER_FILE = path.join(import.meta.dirname, 'fanout-server.ts');
const CLIENTS_FILE = path.join(import.meta.dirname, 'fanout-clients.ts');
const CORES = os.availableParallelism();

type ServerPeer = Peer<FromServer, ToServer>;
type ClientsPeer = Peer<FromClients, ToClients>;

interface Figures {
  name: string;
  clients: number;
  failed: number;
  connectMs: number;
  /** Steady-state deliveries per second over all clients (see `figures`). */
  msgsPerSec: number;
  samples: number;
  /** Distinct broadcasts seen in the window, and deliveries they called for (broadcasts × connected clients). */
  broadcasts: number;
  expected: number;
  /** The client processes' CPU in the window, percent of one core, all of them together. */
  clientCpuPct: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  lost: number;
  disconnects: number;
  /** Server CPU (user + system) in percent of one core, while measuring and before a client connected. */
  cpuPct: number;
  idleCpuPct: number;
  /** Server CPU per delivered message, µs. */
  cpuPerMsg: number;
  /** The server's longest event-loop stall while measuring, ms. */
  loopMax: number;
  rssMb: number;
  snapshot: unknown;
  captured: CapturedMessage[];
}

/** `ulimit -n` of this shell (children inherit it); Infinity when unlimited or unknown. */
function openFileLimit(): number {
  const run = spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' });
  const limit = Number(run.stdout.trim());
  return Number.isInteger(limit) && limit > 0 ? limit : Number.POSITIVE_INFINITY;
}

const cpuPct = (u: ServerUsage) => (u.wallMicros > 0 ? (100 * u.cpuMicros) / u.wallMicros : 0);

async function runScenario(mode: ServerMode, clients: number, processes: number, replay?: Figures): Promise<Figures> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fanout-'));
  const peers: Array<ServerPeer | ClientsPeer> = [];
  try {
    const server: ServerPeer = new Peer(`${mode} server`, SERVER_FILE, [mode, dir]);
    peers.push(server);
    const { port } = await server.next('ready', STARTUP_MS);
    await sleep(SETTLE_MS);
    if (replay) server.send({ type: 'replay', snapshot: replay.snapshot, messages: replay.captured });

    server.send({ type: 'mark' });
    await server.next('marked', REPLY_MS);
    await sleep(IDLE_SECONDS * 1000);
    server.send({ type: 'read' });
    const idle = await server.next('usage', REPLY_MS);

    const url = `http://127.0.0.1:${port}`;
    const group: ClientsPeer[] = [];
    for (let k = 0; k < processes; k++) {
      const share = Math.floor(clients / processes) + (k < clients % processes ? 1 : 0);
      const peer: ClientsPeer = new Peer(`${mode} clients ${k}`, CLIENTS_FILE, [
        url,
        String(share),
        k === 0 && mode === 'product' ? '1' : '0',
      ]);
      group.push(peer);
      peers.push(peer);
    }
    const ready = await Promise.all(group.map((peer) => peer.next('ready', STARTUP_MS)));
    const connected = ready.reduce((sum, r) => sum + r.connected, 0);
    if (connected === 0) throw new Error(`${mode}: no client could connect and subscribe`);

    await sleep(WARMUP_SECONDS * 1000);
    server.send({ type: 'mark' });
    await server.next('marked', REPLY_MS);
    for (const peer of group) peer.send({ type: 'start' });
    await Promise.all(group.map((peer) => peer.next('started', REPLY_MS)));
    await sleep(SECONDS * 1000);
    for (const peer of group) peer.send({ type: 'stop' });
    server.send({ type: 'read' });
    const [usage, ...results] = await Promise.all([
      server.next('usage', REPLY_MS),
      ...group.map((peer) => peer.next('results', REPLY_MS)),
    ]);

    for (const peer of group) peer.send({ type: 'close' });
    await Promise.all(group.map((peer) => peer.exit(REPLY_MS)));
    server.send({ type: 'stop' });
    const code = await server.exit(REPLY_MS);
    if (code !== 0) throw new Error(`${mode} server did not close cleanly (exit ${code})`);
    return figures(mode, ready, results as ClientResults[], idle, usage as ServerUsage);
  } finally {
    for (const peer of peers) peer.kill();
    await Promise.all(peers.map((peer) => peer.exit(REPLY_MS)));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function figures(
  name: string,
  ready: Array<{ connected: number; failed: number; connectMs: number }>,
  results: ClientResults[],
  idle: ServerUsage,
  usage: ServerUsage,
): Figures {
  const latencies = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const delivered = latencies.length;
  const connected = results.reduce((sum, r) => sum + r.connected, 0);
  const windowMs = Math.max(...results.map((r) => r.windowMs));
  // Deliveries per broadcast times broadcasts per second (first to last seen): a window that happens to catch
  // 10 or 11 one-a-second broadcasts reads the same, which deliveries / window would not.
  const stamps = [...new Set(results.flatMap((r) => r.broadcasts))].sort((a, b) => a - b);
  const span = (stamps[stamps.length - 1] ?? 0) - (stamps[0] ?? 0);
  const msgsPerSec =
    stamps.length >= 2 && span > 0
      ? (delivered / stamps.length) * ((1000 * (stamps.length - 1)) / span)
      : (1000 * delivered) / Math.max(1, windowMs);
  const clientCpu = results.reduce((sum, r) => sum + r.cpuMicros, 0);
  const capturing = results.find((r) => r.captured.length > 0);
  return {
    name,
    clients: connected,
    failed: ready.reduce((sum, r) => sum + r.failed, 0),
    connectMs: Math.max(...ready.map((r) => r.connectMs)),
    msgsPerSec,
    samples: delivered,
    broadcasts: stamps.length,
    expected: stamps.length * connected,
    clientCpuPct: windowMs > 0 ? clientCpu / (10 * windowMs) : 0,
    p50: percentile(latencies, 0.5),
    p90: percentile(latencies, 0.9),
    p99: percentile(latencies, 0.99),
    max: latencies[latencies.length - 1] ?? 0,
    lost: results.reduce((sum, r) => sum + r.lost, 0),
    disconnects: results.reduce((sum, r) => sum + r.disconnects, 0),
    cpuPct: cpuPct(usage),
    idleCpuPct: cpuPct(idle),
    cpuPerMsg: delivered > 0 ? usage.cpuMicros / delivered : 0,
    loopMax: usage.loopDelayMaxMs,
    rssMb: usage.rssBytes / 1_048_576,
    snapshot: capturing?.snapshot,
    captured: capturing?.captured ?? [],
  };
}

const n0 = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const n1 = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const n2 = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const ratio = (a: number, b: number) => (b > 0 ? `${n2.format(a / b)}x` : 'n/a');

const COLUMNS: Array<[string, number, (f: Figures) => string, ((p: Figures, b: Figures) => string)?]> = [
  ['scenario', 14, (f) => f.name],
  ['clients', 8, (f) => n0.format(f.clients)],
  ['msgs/s', 9, (f) => n0.format(f.msgsPerSec), (p, b) => ratio(p.msgsPerSec, b.msgsPerSec)],
  ['p50 ms', 7, (f) => n0.format(f.p50), (p, b) => ratio(p.p50, b.p50)],
  ['p90 ms', 7, (f) => n0.format(f.p90), (p, b) => ratio(p.p90, b.p90)],
  ['p99 ms', 7, (f) => n0.format(f.p99), (p, b) => ratio(p.p99, b.p99)],
  ['max ms', 7, (f) => n0.format(f.max), (p, b) => ratio(p.max, b.max)],
  ['lost', 6, (f) => n0.format(f.lost)],
  ['CPU %core', 10, (f) => n1.format(f.cpuPct), (p, b) => ratio(p.cpuPct, b.cpuPct)],
  [`%of ${CORES}`, 7, (f) => n1.format(f.cpuPct / CORES)],
  ['µs CPU/msg', 11, (f) => n1.format(f.cpuPerMsg), (p, b) => ratio(p.cpuPerMsg, b.cpuPerMsg)],
  ['idle %core', 11, (f) => n1.format(f.idleCpuPct)],
  ['loop lag max', 13, (f) => n0.format(f.loopMax)],
  ['RSS MB', 7, (f) => n0.format(f.rssMb), (p, b) => ratio(p.rssMb, b.rssMb)],
];

const row = (cells: string[]) =>
  console.log(
    cells
      .map((cell, k) => (k === 0 ? cell.padEnd(COLUMNS[k]?.[1] ?? 0) : cell.padStart(COLUMNS[k]?.[1] ?? 0)))
      .join(' '),
  );

function payloadSummary(captured: CapturedMessage[]): string {
  if (captured.length === 0) return 'no update captured';
  const bytes = captured.map(
    (m) => JSON.stringify({ topic: TOPIC, kind: 'update', seq: m.seq, ts: m.ts, data: m.data }).length,
  );
  const quotes = captured.map((m) => (Array.isArray(m.data) ? m.data.length : 0));
  const gaps = captured
    .slice(1)
    .map((m, k) => m.ts - (captured[k]?.ts ?? m.ts))
    .sort((a, b) => a - b);
  const mean = (xs: number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length;
  return (
    `${captured.length} updates captured: ${n1.format(mean(quotes))} quotes and ${n0.format(mean(bytes))} bytes ` +
    `of JSON each on average, ${n0.format(gaps[0] ?? 0)} to ${n0.format(gaps[gaps.length - 1] ?? 0)} ms apart (median ${n0.format(percentile(gaps, 0.5))})`
  );
}

// ---- run ----

const limit = openFileLimit();
let clients = CLIENTS;
if (limit < clients + FD_HEADROOM) {
  clients = Math.max(1, limit - FD_HEADROOM);
  console.log(
    `note: ulimit -n is ${limit}, so the server process cannot hold ${n0.format(CLIENTS)} sockets; ` +
      `running ${n0.format(clients)} clients (raise it with \`ulimit -n 4096\` for the full run)`,
  );
}
let processes = CLIENT_PROCESSES;
while (Math.ceil(clients / processes) + FD_HEADROOM > limit) processes += 1;

console.log(
  `fan-out of "${TOPIC}": ${n0.format(clients)} socket.io clients (websocket) on loopback in ${processes} processes, ` +
    `${SECONDS} s measured after ${WARMUP_SECONDS} s warm-up; ${CORES} cores, ulimit -n ${limit}`,
);

const started = Date.now();
const loadBefore = n2.format(os.loadavg()[0] ?? 0);
const product = await runScenario('product', clients, processes);
if (product.captured.length < 2) throw new Error('the product sent fewer than 2 quotes updates while measuring');
const baseline = await runScenario('baseline', clients, processes, product);

console.log(`payload: ${payloadSummary(product.captured)}; the baseline replays them with the same timing`);
console.log('');
row(COLUMNS.map(([title]) => title));
for (const f of [baseline, product]) row(COLUMNS.map(([, , cell]) => cell(f)));
row(COLUMNS.map(([, , , compare], k) => (k === 0 ? 'product/base' : compare ? compare(product, baseline) : '')));
console.log('');
for (const f of [baseline, product]) {
  console.log(
    `${f.name.padEnd(9)} p99 under ${TARGET_P99_MS} ms: ${f.p99 < TARGET_P99_MS ? 'yes' : 'NO '} (${f.p99} ms); ` +
      `${n0.format(f.samples)} of ${n0.format(f.expected)} deliveries (${f.broadcasts} broadcasts x ${n0.format(f.clients)} clients); ` +
      `${f.failed} failed, ${f.disconnects} dropped; subscribed in ${n1.format(f.connectMs / 1000)} s; ` +
      `client processes ${n0.format(f.clientCpuPct)} %core`,
  );
}
// Other work on the machine shows up as latency here (the harness itself uses little CPU); say how busy it was.
const load = os
  .loadavg()
  .map((x) => n2.format(x))
  .join(' ');
console.log(
  `total ${n1.format((Date.now() - started) / 1000)} s; load average ${loadBefore} before, ${load} after (1, 5, 15 min) on ${CORES} cores`,
);
