import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { type WebSocket, WebSocketServer } from 'ws';

export interface ReplayOptions {
  /** The recording: one message per entry, sent as a text frame exactly as written. */
  lines: readonly string[];
  /** 1 plays at the recorded pace (by the events' `E` times), 100 a hundred times faster; Infinity (default) without pauses. */
  speed?: number;
  /** Connection k (counted from 0) is cut after `drops[k]` messages; later connections get the whole recording. */
  drops?: readonly number[];
  host?: string;
  port?: number;
}

/** The recording in `file`: its non-empty lines. */
export function readRecording(file: string): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

interface Line {
  text: string;
  stream: string | undefined;
  eventTime: number | undefined;
}

function describeLine(text: string): Line {
  try {
    const message: unknown = JSON.parse(text);
    if (typeof message !== 'object' || message === null) return { text, stream: undefined, eventTime: undefined };
    const stream = 'stream' in message && typeof message.stream === 'string' ? message.stream : undefined;
    const data = 'data' in message ? message.data : message;
    const time = typeof data === 'object' && data !== null && 'E' in data ? data.E : undefined;
    return { text, stream, eventTime: typeof time === 'number' ? time : undefined };
  } catch {
    return { text, stream: undefined, eventTime: undefined };
  }
}

/** The streams a combined-stream URL asks for, or undefined when it names none (then everything is sent). */
function requestedStreams(url: string | undefined): Set<string> | undefined {
  const query = (url ?? '').split('?')[1] ?? '';
  const streams = new URLSearchParams(query).get('streams');
  return streams ? new Set(streams.split('/')) : undefined;
}

/**
 * A stand-in for the exchange's websocket: it plays a recorded stream (one wire message per line, e.g.
 * tests/fixtures/market/binance-trades.jsonl) to every client that connects, from the first line, with the
 * recorded timestamps unchanged. The live source reaches it through its URL option (MARKET_WS_URL).
 *
 * Like the exchange, it sends only the streams the client asked for (`/stream?streams=a/b/c`); lines that name
 * no stream (deliberately broken ones, say) always go out. It can cut a connection mid-stream, without a
 * close frame, the way a network drop looks to the client.
 */
export class ReplayServer {
  /** Request paths of every connection so far (with their `?streams=` query). */
  readonly requests: string[] = [];
  /** Close codes the server saw, one per ended connection (1000: the client closed normally; 1006: cut). */
  readonly closeCodes: number[] = [];
  private readonly lines: Line[];
  private readonly clients = new Set<WebSocket>();

  private constructor(
    private readonly wss: WebSocketServer,
    private readonly options: ReplayOptions,
  ) {
    this.lines = options.lines.map(describeLine);
    wss.on('connection', (socket, request) => {
      const index = this.requests.length;
      this.requests.push(request.url ?? '');
      this.clients.add(socket);
      socket.on('close', (code) => {
        this.clients.delete(socket);
        this.closeCodes.push(code);
      });
      socket.on('error', () => {});
      void this.play(socket, requestedStreams(request.url), options.drops?.[index]);
    });
  }

  static async start(options: ReplayOptions): Promise<ReplayServer> {
    const wss = new WebSocketServer({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
    await new Promise<void>((resolve, reject) => {
      wss.once('listening', resolve);
      wss.once('error', reject);
    });
    return new ReplayServer(wss, options);
  }

  /** `ws://host:port`: the base URL for the live source. */
  get url(): string {
    const { address, port } = this.wss.address() as AddressInfo;
    return `ws://${address.includes(':') ? `[${address}]` : address}:${port}`;
  }

  get connections(): number {
    return this.requests.length;
  }

  /** Connections open right now. */
  get openConnections(): number {
    return this.clients.size;
  }

  /** Cuts every open connection (no close frame). */
  dropAll(): void {
    for (const socket of this.clients) socket.terminate();
  }

  async close(): Promise<void> {
    this.dropAll();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private async play(socket: WebSocket, streams: Set<string> | undefined, dropAfter: number | undefined) {
    const speed = this.options.speed ?? Number.POSITIVE_INFINITY;
    let sent = 0;
    let written: Promise<unknown> = Promise.resolve();
    let previousTime: number | undefined;
    for (const line of this.lines) {
      if (streams && line.stream !== undefined && !streams.has(line.stream)) continue;
      if (dropAfter !== undefined && sent >= dropAfter) {
        // Let what was sent reach the wire first, so the client sees exactly `dropAfter` messages.
        await written;
        socket.terminate();
        return;
      }
      const pause =
        previousTime !== undefined && line.eventTime !== undefined ? (line.eventTime - previousTime) / speed : 0;
      if (line.eventTime !== undefined) previousTime = line.eventTime;
      if (pause >= 1) await sleep(pause);
      if (socket.readyState !== socket.OPEN) return;
      written = new Promise((resolve) => socket.send(line.text, resolve));
      sent++;
    }
  }
}
