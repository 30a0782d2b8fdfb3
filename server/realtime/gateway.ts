import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import { type Sessions, tokenFromHeader } from '../domains/account/sessions';
import { connectRedisPair } from './redis';

/** What the gateway keeps on each socket (`socket.data`). */
export interface SocketData {
  /** The logged-in user, when the handshake carried a valid token; anonymous sockets get market data only. */
  userId: number | null;
}

/** Room with every socket of one user, for pushes about their own orders and balances. */
export const userRoom = (userId: number) => `user:${userId}`;

export type RealtimeServer = Server<Record<string, never>, Record<string, never>, Record<string, never>, SocketData>;

/**
 * The socket.io gateway on the app's HTTP server. A handshake may carry `auth.token` (the session token):
 * when valid the socket joins its user's room, otherwise it stays anonymous (never refused, so public
 * topics work before login). With `redisUrl`, rooms and broadcasts span all server processes.
 */
export async function attachRealtime(
  app: FastifyInstance,
  options: { sessions: Sessions; redisUrl?: string | undefined },
): Promise<RealtimeServer> {
  const io: RealtimeServer = new Server(app.server, { path: '/socket.io', serveClient: false });

  if (options.redisUrl) {
    const [pub, sub] = await connectRedisPair(options.redisUrl, app.log);
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
      next();
    } catch (err) {
      app.log.error({ err }, 'socket handshake failed');
      next(new Error('server error'));
    }
  });

  io.on('connection', (socket) => {
    if (socket.data.userId !== null) void socket.join(userRoom(socket.data.userId));
  });

  // Disconnect sockets before Fastify closes the HTTP server, which would otherwise wait for them.
  app.addHook('preClose', async () => {
    io.disconnectSockets(true);
    io.engine.close();
  });
  return io;
}
