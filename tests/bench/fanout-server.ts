import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Server } from 'socket.io';
import { MARKET_EVENT } from '../../protocol/market';
import { buildApp } from '../../server/app';
import { createMarketFeed } from '../../server/main';
import { migrateToLatest } from '../../server/migrations';
import { openSqlite } from '../../server/platform/db/connect';
import type { CapturedMessage, FromServer, ServerMode, ToServer } from './fanout-shared';
import { TOPIC, tell } from './fanout-shared';

/**
 * The server side of the fan-out benchmark, alone in its process so its CPU is its own.
 * `product`: the real app (buildApp on SQLite in `dir`, the seeded market feed, prices recorded as in production).
 * `baseline`: a bare socket.io server that io.emit()s the product's captured `quotes` updates with their timing.
 * argv: mode, dir (an existing temp dir the parent removes).
 */

const SEED = 'fanout-bench';

interface Running {
  port: number;
  sockets(): number;
  close(): Promise<void>;
}

const send = (message: FromServer) => tell(message);

async function startProduct(dir: string): Promise<Running> {
  const database = openSqlite(path.join(dir, 'app.db'));
  await migrateToLatest(database);
  const feed = createMarketFeed({ seed: SEED, alwaysOpen: true });
  const app = await buildApp({ database, staticDir: false, market: { feed } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  feed.start();
  return {
    port: (app.server.address() as AddressInfo).port,
    sockets: () => app.io.engine.clientsCount,
    async close() {
      feed.close();
      await app.close();
      await database.db.destroy();
    },
  };
}

interface Ack {
  ok: boolean;
  topic: string;
}

let replayTimer: NodeJS.Timeout | undefined;
let baselineSeq = 0;
let baselineSnapshot: unknown = [];
let baselineIo: Server | undefined;

async function startBaseline(): Promise<Running> {
  const httpServer = http.createServer();
  const io = new Server(httpServer, { path: '/socket.io', serveClient: false });
  baselineIo = io;
  io.on('connection', (socket) => {
    // The same handshake as the product's from the client's side: an ack, then a snapshot.
    socket.on('subscribe', (topic: string, ack?: (answer: Ack) => void) => {
      if (typeof ack === 'function') ack({ ok: true, topic });
      socket.emit(MARKET_EVENT, {
        topic: TOPIC,
        kind: 'snapshot',
        seq: baselineSeq,
        ts: Date.now(),
        data: baselineSnapshot,
      });
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  return {
    port: (httpServer.address() as AddressInfo).port,
    sockets: () => io.engine.clientsCount,
    async close() {
      clearTimeout(replayTimer);
      io.disconnectSockets(true);
      await io.close();
    },
  };
}

/** Broadcasts `messages` to every socket in a loop, each at its original offset from the first (a fresh `ts`). */
function replay(io: { emit(event: string, message: unknown): boolean }, messages: CapturedMessage[]): void {
  const first = messages[0]?.ts ?? 0;
  const offsets = messages.map((m) => m.ts - first);
  const gaps = offsets
    .slice(1)
    .map((offset, k) => offset - (offsets[k] ?? 0))
    .sort((a, b) => a - b);
  const period = (offsets[offsets.length - 1] ?? 0) + (gaps[Math.floor(gaps.length / 2)] ?? 250);
  const start = Date.now();
  let index = 0;
  let cycle = 0;
  const emitNext = () => {
    const message = messages[index];
    baselineSeq += 1;
    io.emit(MARKET_EVENT, { topic: TOPIC, kind: 'update', seq: baselineSeq, ts: Date.now(), data: message?.data });
    index += 1;
    if (index >= messages.length) {
      index = 0;
      cycle += 1;
    }
    const due = start + cycle * period + (offsets[index] ?? 0);
    replayTimer = setTimeout(emitNext, Math.max(0, due - Date.now()));
  };
  replayTimer = setTimeout(emitNext, 0);
}

const [mode, dir] = process.argv.slice(2) as [ServerMode, string];
const running = mode === 'product' ? await startProduct(dir) : await startBaseline();

/** Node 20 records each whole timer interval, so a free loop reads as the resolution; it is taken off below. */
const LOOP_RESOLUTION_MS = 10;
const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
loopDelay.enable();
let mark = { cpu: process.cpuUsage(), wall: process.hrtime.bigint() };

process.on('disconnect', () => process.exit(1));
process.on('message', (raw) => {
  const message = raw as ToServer;
  switch (message.type) {
    case 'replay':
      baselineSnapshot = message.snapshot;
      if (baselineIo && message.messages.length > 0) replay(baselineIo, message.messages);
      break;
    case 'mark':
      loopDelay.reset();
      mark = { cpu: process.cpuUsage(), wall: process.hrtime.bigint() };
      send({ type: 'marked' });
      break;
    case 'read': {
      const cpu = process.cpuUsage(mark.cpu);
      send({
        type: 'usage',
        cpuMicros: cpu.user + cpu.system,
        wallMicros: Number((process.hrtime.bigint() - mark.wall) / 1000n),
        rssBytes: process.memoryUsage().rss,
        sockets: running.sockets(),
        loopDelayMaxMs: Math.max(0, Math.trunc(loopDelay.max / 1e6) - LOOP_RESOLUTION_MS),
      });
      break;
    }
    case 'stop':
      running.close().then(
        () => process.exit(0),
        (err: unknown) => {
          console.error(err);
          process.exit(1);
        },
      );
      break;
  }
});
send({ type: 'ready', port: running.port });
