import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropEndedSessions, userRoom } from '../../server/platform/realtime/gateway';
import { Sessions } from '../../server/platform/security/sessions';
import { DATABASES, openTestDatabase, startTestApp, type TestApp, type TestDatabase, uniqueEmail } from './harness';

describe.each(DATABASES)('socket.io gateway on %s', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  let url: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    t = await startTestApp(database.handle);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await t?.close();
    await database?.close();
  });

  /** Connects a real client and resolves once connected (websocket only, like the app in production). */
  async function open(auth: Record<string, unknown>): Promise<Socket> {
    const socket = connect(url, { auth, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    return socket;
  }
  /** The server's view of a connected client. */
  const serverSide = (socket: Socket) => {
    const found = t.app.io.of('/').sockets.get(socket.id ?? '');
    if (!found) throw new Error('socket not found on the server');
    return found;
  };

  it('accepts anonymous sockets', async () => {
    const socket = await open({});
    expect(serverSide(socket).data.userId).toBeNull();
    const junk = await open({ token: 'not-a-session' });
    expect(serverSide(junk).data.userId).toBeNull();
  });

  it('attaches the user of a valid token and joins their room', async () => {
    const { token, user } = await t.registerByEmail(uniqueEmail());
    const socket = await open({ token });
    const server = serverSide(socket);
    expect(server.data.userId).toBe(user.id);
    expect(server.rooms.has(userRoom(user.id))).toBe(true);

    // Pushes to the user's room reach the socket.
    const received = new Promise((resolve) => socket.once('ping:test', resolve));
    t.app.io.to(userRoom(user.id)).emit('ping:test' as never);
    await expect(received).resolves.toBeUndefined();
  });

  it('treats a revoked token as anonymous', async () => {
    const { token } = await t.registerByEmail(uniqueEmail());
    await t.call('user/logout', {}, { token });
    const socket = await open({ token });
    expect(serverSide(socket).data.userId).toBeNull();
  });

  it('drops a socket whose session ends after the handshake (logout elsewhere, ops revoke)', async () => {
    const { token, user } = await t.registerByEmail(uniqueEmail());
    const other = await t.registerByEmail(uniqueEmail());
    const socket = await open({ token });
    const bystander = await open({ token: other.token });
    expect(serverSide(socket).data.userId).toBe(user.id);
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));

    expect(await dropEndedSessions(t.app.io, new Sessions(t.db, t.clock.now))).toBe(0);
    await t.call('user/logout', {}, { token });
    expect(await dropEndedSessions(t.app.io, new Sessions(t.db, t.clock.now))).toBe(1);
    await expect(closed).resolves.toBe('io server disconnect');
    expect(bystander.connected).toBe(true);
  });

  it('also serves the polling transport', async () => {
    const socket = connect(url, { transports: ['polling'], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    expect(socket.connected).toBe(true);
  });
});

/** Needs a Redis server: set TEST_REDIS_URL (e.g. redis://127.0.0.1:6379) to run it. */
describe.runIf(process.env.TEST_REDIS_URL)('socket.io across two server processes with the Redis adapter', () => {
  it('a push from one server reaches a user connected to the other', async () => {
    const redisUrl = process.env.TEST_REDIS_URL;
    const database = await openTestDatabase('sqlite');
    const a = await startTestApp(database.handle, { redisUrl });
    const b = await startTestApp(database.handle, { redisUrl });
    let socket: Socket | undefined;
    try {
      await b.app.listen({ host: '127.0.0.1', port: 0 });
      const { token, user } = await a.registerByEmail(uniqueEmail());
      socket = connect(`http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`, {
        auth: { token },
        transports: ['websocket'],
        reconnection: false,
      });
      await new Promise((resolve, reject) => {
        socket?.once('connect', () => resolve(undefined));
        socket?.once('connect_error', reject);
      });
      const received = new Promise((resolve) => socket?.once('ping:test', resolve));
      // The adapter learns of the remote socket's room through Redis; retry the push until it lands.
      const timer = setInterval(() => a.app.io.to(userRoom(user.id)).emit('ping:test' as never), 50);
      try {
        await received;
      } finally {
        clearInterval(timer);
      }
    } finally {
      socket?.disconnect();
      await a.close();
      await b.close();
      await database.close();
    }
  });
});
