import { io, type Socket } from 'socket.io-client';
import type { CapturedMessage, FromClients, ToClients } from './fanout-shared';
import { TOPIC, tell } from './fanout-shared';

/**
 * A batch of real socket.io clients for the fan-out benchmark (one process holds a few hundred). Each opens its
 * own WebSocket, subscribes to `quotes`, and while measuring notes receipt time minus the message's `ts` and each
 * jump in `seq`; nothing else of a message is looked at. argv: url, count, capture ('1': the first socket keeps
 * the snapshot and the updates it gets while measuring, for the baseline server to replay).
 */

const CONNECTS_IN_FLIGHT = 50;
const MAX_CAPTURED = 400;

interface Message {
  kind: 'snapshot' | 'update';
  seq: number;
  ts: number;
  data: unknown;
}

interface ListenEvents {
  market: (message: Message) => void;
}

interface EmitEvents {
  subscribe: (topic: string, ack: (answer: { ok: boolean; topic: string }) => void) => void;
}

const [url = '', countArg = '0', captureArg = '0'] = process.argv.slice(2);
const count = Number(countArg);
const capture = captureArg === '1';

const send = (message: FromClients) => tell(message);

const sockets: Socket<ListenEvents, EmitEvents>[] = [];
let measuring = false;
let closing = false;
let latencies: number[] = [];
let lost = 0;
let disconnects = 0;
let startedAt = 0;
let startCpu = process.cpuUsage();
const broadcasts = new Set<number>();
let snapshot: unknown;
const captured: CapturedMessage[] = [];

/** Opens one socket and subscribes; true once the server acknowledged. */
function open(index: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket: Socket<ListenEvents, EmitEvents> = io(url, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      timeout: 20_000,
    });
    sockets.push(socket);
    const keep = capture && index === 0;
    let lastSeq = -1;
    socket.on('market', (message) => {
      const now = Date.now();
      if (message.kind !== 'update') {
        lastSeq = message.seq;
        if (keep) snapshot = message.data;
        return;
      }
      if (measuring) {
        latencies.push(now - message.ts);
        broadcasts.add(message.ts);
        if (lastSeq >= 0 && message.seq > lastSeq + 1) lost += message.seq - lastSeq - 1;
        if (keep && captured.length < MAX_CAPTURED) {
          captured.push({ ts: message.ts, seq: message.seq, data: message.data });
        }
      }
      lastSeq = message.seq;
    });
    socket.on('disconnect', () => {
      if (!closing) disconnects += 1;
    });
    socket.once('connect_error', () => resolve(false));
    socket.once('connect', () => {
      socket
        .timeout(20_000)
        .emitWithAck('subscribe', TOPIC)
        .then(
          (answer) => resolve(answer.ok),
          () => resolve(false),
        );
    });
  });
}

process.on('disconnect', () => process.exit(1));
process.on('message', (raw) => {
  const message = raw as ToClients;
  switch (message.type) {
    case 'start':
      latencies = [];
      lost = 0;
      broadcasts.clear();
      measuring = true;
      startedAt = Date.now();
      startCpu = process.cpuUsage();
      send({ type: 'started' });
      break;
    case 'stop': {
      measuring = false;
      const cpu = process.cpuUsage(startCpu);
      send({
        type: 'results',
        latencies,
        windowMs: Date.now() - startedAt,
        broadcasts: [...broadcasts],
        cpuMicros: cpu.user + cpu.system,
        lost,
        disconnects,
        connected: sockets.filter((s) => s.connected).length,
        snapshot,
        captured,
      });
      break;
    }
    case 'close':
      closing = true;
      for (const socket of sockets) socket.disconnect();
      setTimeout(() => process.exit(0), 200);
      break;
  }
});

const t0 = Date.now();
let nextIndex = 0;
let connected = 0;
await Promise.all(
  Array.from({ length: Math.min(CONNECTS_IN_FLIGHT, count) }, async () => {
    while (nextIndex < count) {
      const index = nextIndex++;
      if (await open(index)) connected += 1;
    }
  }),
);
send({ type: 'ready', connected, failed: count - connected, connectMs: Date.now() - t0 });
