import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'socket.io';
import { Server } from 'socket.io';
import type { MarketTopicSpec } from '../../../protocol/socket-surface';
import { type Sessions, tokenFromHeader } from '../security/sessions';
import { connectRedisPair } from './redis';

/** What the gateway keeps on each socket (`socket.data`). */
export interface SocketData {
  /** The logged-in user, when the handshake carried a valid token; anonymous sockets get market data only. */
  userId: number | null;
  /** The session behind `userId`, checked again every `sessionCheckMs`. */
  sessionId: number | null;
}

/** How often sockets of logged-in users are checked against their sessions (logout, password change, ops revoke). */
export const SESSION_CHECK_MS = 15_000;

/** Room with every socket of one user, for pushes about their own orders and balances. */
export const userRoom = (userId: number) => `user:${userId}`;

/**
 * What a module adds to the socket: handlers on each connected socket (`subscribe` for its topics, commands), and
 * timers started and stopped with the app. Every module sees every `subscribe` and answers only for topic names it
 * owns (market topics, `me:` private topics), so modules never need to know of each other.
 */
export interface RealtimeModule {
  /** The public topics it serves, as the published AsyncAPI document describes them. */
  documented?: Readonly<Record<string, MarketTopicSpec>>;
  start?(io: RealtimeServer): void;
  attach(socket: Socket<never, never, never, SocketData>): void;
  close?(): void;
}

export type RealtimeServer = Server<Record<string, never>, Record<string, never>, Record<string, never>, SocketData>;

/**
 * The socket.io gateway on the app's HTTP server. A handshake may carry `auth.token` (the session token):
 * when valid the socket joins its user's room, otherwise it stays anonymous (never refused, so public
 * topics work before login). With `redisUrl`, rooms and broadcasts span all server processes.
 */
export async function attachRealtime(
  app: FastifyInstance,
  options: {
    sessions: Sessions;
    redisUrl?: string | undefined;
    /** What modules offer on every socket: topics (market, private), commands; started and closed with the app. */
    modules?: RealtimeModule[];
  },
): Promise<RealtimeServer> {
  const io: RealtimeServer = new Server(app.server, { path: '/socket.io', serveClient: false });

  if (options.redisUrl) {
    const [pub, sub] = await connectRedisPair(options.redisUrl, (err) =>
      app.log.error({ err }, 'redis connection error'),
    );
    io.adapter(createAdapter(pub, sub));
    app.addHook('onClose', async () => {
      await Promise.all([pub.close(), sub.close()]);
    });
  }

  io.use(async (socket, next) => {
    const token: unknown = socket.handshake.auth.token;
    try {
      const lookup = await options.sessions.resolve(typeof token === 'string' ? tokenFromHeader(token) : undefined);
      socket.data.userId = lookup.state === 'valid' ? lookup.session.userId : null;
      socket.data.sessionId = lookup.state === 'valid' ? lookup.session.id : null;
      next();
    } catch (err) {
      app.log.error({ err }, 'socket handshake failed');
      next(new Error('server error'));
    }
  });

  const modules = options.modules ?? [];
  for (const module of modules) module.start?.(io);
  io.on('connection', (socket) => {
    if (socket.data.userId !== null) void socket.join(userRoom(socket.data.userId));
    // The gateway's own event maps stay open-ended; each module types its own events.
    for (const module of modules) module.attach(socket);
  });

  // Disconnect sockets before Fastify closes the HTTP server, which would otherwise wait for them.
  app.addHook('preClose', async () => {
    for (const module of modules) module.close?.();
    io.disconnectSockets(true);
    io.engine.close();
  });
  return io;
}

/**
 * Disconnects this process's sockets whose session has been revoked or has expired since the handshake. A session
 * can end while its socket stays open (logout elsewhere, password change, `ops sessions revoke`, possibly in another
 * process): such sockets are dropped, so a revoked token stops receiving the user's private events. The client
 * reconnects with whatever token it now holds and gets what that token allows. Every process runs it for its own
 * sockets (a `process` job, every SESSION_CHECK_MS).
 */
export async function dropEndedSessions(io: RealtimeServer, sessions: Sessions): Promise<number> {
  const authenticated = [...io.of('/').sockets.values()].filter((s) => s.data.sessionId !== null);
  const live = await sessions.liveIds([...new Set(authenticated.map((s) => s.data.sessionId as number))]);
  let dropped = 0;
  for (const socket of authenticated) {
    if (live.has(socket.data.sessionId as number)) continue;
    socket.disconnect(true);
    dropped += 1;
  }
  return dropped;
}
