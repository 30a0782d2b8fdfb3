import { performance } from 'node:perf_hooks';
import type { CallPath } from '../../server/domains';
import { type ApiReply, type CrashServer, call } from '../integration/crash-kit';

/**
 * The failover bench's traders over HTTP: each sends one order after the other to its home process, with a short
 * pause between. When the home process dies under a request, the answer of that one request is unknown (it may or
 * may not have been accepted: counted as in flight), and the trader goes on at a process still up, as a client
 * behind a load balancer would. Every answer is timed and filed under the phase it was sent in.
 */

export type Product = 'spot' | 'options' | 'lever';

export interface OrderRequest {
  path: CallPath;
  fields: Record<string, string> & { request_id: string };
  token: string;
}

export interface Submission {
  phase: string;
  ms: number;
  ok: boolean;
}

export interface Crowd {
  /** Acknowledged orders per product: id → request id. */
  acked: Record<Product, Map<number, string>>;
  /** Requests whose answer was lost with a killed process, per product. */
  inFlight: Record<Product, number>;
  refusals: Map<string, number>;
  submissions: Submission[];
  /** The phase new requests are filed under. */
  phase: string;
  stop(): Promise<void>;
}

export interface Trader {
  product: Product;
  /** The process it sends to while that one is up (an index into the cluster's processes). */
  home: number;
  next(i: number): OrderRequest | undefined;
}

export function startCrowd(
  traders: readonly Trader[],
  servers: () => readonly { url: string; dead: boolean }[],
  pauseMs: number,
  afterReply?: (trader: Trader, reply: ApiReply) => Promise<unknown> | undefined,
): Crowd {
  let stopped = false;
  const crowd: Crowd = {
    acked: { spot: new Map(), options: new Map(), lever: new Map() },
    inFlight: { spot: 0, options: 0, lever: 0 },
    refusals: new Map(),
    submissions: [],
    phase: 'baseline',
    stop: async () => {
      stopped = true;
      await Promise.all(running);
    },
  };
  const serverOf = (trader: Trader): CrashServer | undefined => {
    const url = liveUrl(servers(), trader.home);
    return url ? ({ url } as CrashServer) : undefined;
  };
  const run = async (trader: Trader) => {
    for (let i = 0; !stopped; i++) {
      const request = trader.next(i);
      const server = serverOf(trader);
      if (!request || !server) return;
      const phase = crowd.phase;
      const started = performance.now();
      let reply: ApiReply;
      try {
        reply = await call(server, request.path, request.fields, request.token);
      } catch {
        // The process went away under the request: its fate is for the record to tell.
        crowd.inFlight[trader.product]++;
        continue;
      }
      const ok = reply.type === 'ok';
      crowd.submissions.push({ phase, ms: performance.now() - started, ok });
      if (ok) crowd.acked[trader.product].set((reply.data as { id: number }).id, request.fields.request_id);
      else {
        const key = `${trader.product}: ${reply.message}`;
        crowd.refusals.set(key, (crowd.refusals.get(key) ?? 0) + 1);
      }
      await afterReply?.(trader, reply);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  };
  const running = traders.map((t) => run(t).catch(() => undefined));
  return crowd;
}

/** The p-th percentile (0..100) of `values`, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/** The URL of process `home` while it is up, else of the next process that is. */
export function liveUrl(servers: readonly { url: string; dead: boolean }[], home: number): string | undefined {
  for (let k = 0; k < servers.length; k++) {
    const server = servers[(home + k) % servers.length];
    if (server && !server.dead) return server.url;
  }
  return undefined;
}
