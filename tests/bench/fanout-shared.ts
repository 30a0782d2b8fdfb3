import { type ChildProcess, fork } from 'node:child_process';

/**
 * What the fan-out benchmark's processes say to each other over IPC: the parent (fanout.bench.ts) drives one
 * server process (fanout-server.ts) and a few client processes (fanout-clients.ts).
 */

export const TOPIC = 'quotes';

/** One market update as a client received it; the baseline server replays these with the same timing. */
export interface CapturedMessage {
  ts: number;
  seq: number;
  data: unknown;
}

export type ServerMode = 'product' | 'baseline';

export type ToServer =
  | { type: 'replay'; snapshot: unknown; messages: CapturedMessage[] }
  | { type: 'mark' }
  | { type: 'read' }
  | { type: 'stop' };

export interface ServerUsage {
  type: 'usage';
  /** user + system CPU since the last mark. */
  cpuMicros: number;
  wallMicros: number;
  rssBytes: number;
  /** Engine.io connections the server holds. */
  sockets: number;
  /** The longest the server's event loop was blocked since the last mark, whole ms (a broadcast blocks it). */
  loopDelayMaxMs: number;
}

export type FromServer = { type: 'ready'; port: number } | { type: 'marked' } | ServerUsage;

export type ToClients = { type: 'start' } | { type: 'stop' } | { type: 'close' };

export interface ClientResults {
  type: 'results';
  /** Receipt time minus the message's server `ts`, whole ms, one per update received in the window. */
  latencies: number[];
  windowMs: number;
  /** The distinct server `ts` of the updates received in the window: one per broadcast. */
  broadcasts: number[];
  /** This process's CPU (user + system) in the window. */
  cpuMicros: number;
  /** Updates the clients did not get in the window (jumps in `seq`). */
  lost: number;
  disconnects: number;
  connected: number;
  /** Only from the capturing process: the first socket's snapshot and updates. */
  snapshot: unknown;
  captured: CapturedMessage[];
}

export type FromClients =
  | { type: 'ready'; connected: number; failed: number; connectMs: number }
  | { type: 'started' }
  | ClientResults;

/** Sends a message to the parent (children only). */
export function tell<M extends object>(message: M): void {
  process.send?.(message);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Waiter<In> {
  type: string;
  resolve: (message: In) => void;
  reject: (err: Error) => void;
}

/** A child process run with tsx, spoken to with typed IPC messages. */
export class Peer<In extends { type: string }, Out extends object> {
  readonly child: ChildProcess;
  private readonly inbox: In[] = [];
  private readonly waiters = new Set<Waiter<In>>();
  private readonly exited: Promise<number | null>;
  private gone: Error | undefined;

  constructor(
    readonly name: string,
    file: string,
    args: string[],
  ) {
    this.child = fork(file, args, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (raw) => this.deliver(raw as In));
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        this.gone = new Error(`${name} exited (${signal ?? code})`);
        for (const waiter of this.waiters) waiter.reject(this.gone);
        this.waiters.clear();
        resolve(code);
      });
    });
  }

  send(message: Out): void {
    if (this.child.connected) this.child.send(message);
  }

  /** The next message of `type` (buffered ones first); fails when the child exits or after `timeoutMs`. */
  next<K extends In['type']>(type: K, timeoutMs: number): Promise<Extract<In, { type: K }>> {
    const index = this.inbox.findIndex((m) => m.type === type);
    if (index >= 0) {
      const [message] = this.inbox.splice(index, 1);
      return Promise.resolve(message as Extract<In, { type: K }>);
    }
    if (this.gone) return Promise.reject(this.gone);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`${this.name}: no "${type}" within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter: Waiter<In> = {
        type,
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message as Extract<In, { type: K }>);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      this.waiters.add(waiter);
    });
  }

  /** Waits for the child to exit (killing it after `timeoutMs`); its exit code, null when killed. */
  async exit(timeoutMs: number): Promise<number | null> {
    const timer = setTimeout(() => this.kill(), timeoutMs);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }

  kill(): void {
    if (!this.gone && this.child.exitCode === null) this.child.kill('SIGKILL');
  }

  private deliver(message: In): void {
    for (const waiter of this.waiters) {
      if (waiter.type === message.type) {
        this.waiters.delete(waiter);
        waiter.resolve(message);
        return;
      }
    }
    this.inbox.push(message);
  }
}

/** The value at fraction `p` of an ascending array (nearest rank, rounded down); 0 for an empty one. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}
