import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import {
  COMMAND_EVENT,
  type CommandAnswer,
  PRIVATE_EVENT,
  type PrivateMessage,
  privateMessage,
} from '../../protocol/realtime';
import { recordUserEvent } from '../../server/platform/realtime/user-events';
import { DATABASES, openTestDatabase, startTestApp, type TestApp, type TestDatabase, uniqueEmail } from './harness';

describe.each(DATABASES)('private topics and commands over socket.io on %s', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  let url: string;
  const sockets: Socket[] = [];
  /** How often the test command really ran, per user. */
  const ran = new Map<number, number>();
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    t = await startTestApp(database.handle, { userEventsPollMs: 50 });
    t.app.channels.command({
      name: 'test.echo',
      args: z.object({ text: z.string().check(z.minLength(1, 'invalidInput')) }),
      summary: 'Echoes the text.',
      answer: z.object({ echo: z.string(), userId: z.number() }),
      run: async (userId, args) => {
        ran.set(userId, (ran.get(userId) ?? 0) + 1);
        return { echo: args.text, userId };
      },
    });
    let flaky = 0;
    t.app.channels.command({
      name: 'test.flaky',
      args: z.object({}),
      summary: 'Fails on its first run.',
      answer: z.object({ runs: z.number() }),
      run: async () => {
        flaky += 1;
        if (flaky === 1) throw new Error('database blip');
        return { runs: flaky };
      },
    });
    t.app.channels.topic({
      name: 'broken',
      schema: z.array(z.string()),
      summary: 'Cannot read its snapshot.',
      events: [],
      snapshot: async () => {
        throw new Error('cannot read');
      },
      fromEvent: () => [],
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await t?.close();
    await database?.close();
  });

  async function open(auth: Record<string, unknown>): Promise<Socket> {
    const socket = connect(url, { auth, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    return socket;
  }

  const subscribe = (socket: Socket, topic: string) => socket.emitWithAck('subscribe', topic);

  it('gives a logged-in user a snapshot of their own account events, then numbered updates', async () => {
    const me = await t.registerByEmail(uniqueEmail());
    const other = await t.registerByEmail(uniqueEmail());
    const at = Date.now();
    await recordUserEvent(t.db, { userId: me.user.id, kind: 'kyc', data: { state: 'review' }, at });
    await recordUserEvent(t.db, { userId: other.user.id, kind: 'kyc', data: { state: 'secret' }, at });

    const socket = await open({ token: me.token });
    // Every private message of the socket, from before the subscription on (updates may follow the snapshot at once).
    const messages: PrivateMessage[] = [];
    let sawLast: () => void = () => {};
    const last = new Promise<void>((resolve) => {
      sawLast = resolve;
    });
    socket.on(PRIVATE_EVENT, (raw: unknown) => {
      const message = privateMessage.parse(raw);
      messages.push(message);
      if (JSON.stringify(message.data).includes('withdrawal')) sawLast();
    });
    await expect(subscribe(socket, 'me:account')).resolves.toEqual({ ok: true, topic: 'me:account' });
    await vi.waitFor(() => expect(messages.length).toBeGreaterThan(0));
    const [first] = messages;
    expect(first).toMatchObject({ topic: 'me:account', kind: 'snapshot', seq: 0 });
    // Events from before the subscription are the snapshot; nobody else's are in it.
    expect(JSON.stringify(first?.data)).not.toContain('secret');

    // The snapshot may overlap an event the relay had not delivered yet (it then comes once more as an update), so
    // read updates until the last event, then check numbering and content.
    await recordUserEvent(t.db, { userId: other.user.id, kind: 'deposit', data: { id: 1 }, at });
    await recordUserEvent(t.db, { userId: me.user.id, kind: 'deposit', data: { id: 2 }, at });
    await recordUserEvent(t.db, { userId: me.user.id, kind: 'withdrawal', data: { id: 3 }, at });
    await last;
    const updates = messages.slice(1);
    expect(updates.map((u) => u.seq)).toEqual(updates.map((_, i) => i + 1));
    expect(updates.every((u) => u.kind === 'update' && u.topic === 'me:account')).toBe(true);
    expect(updates.slice(-2).map((u) => u.data)).toEqual([
      [{ kind: 'deposit', data: { id: 2 } }],
      [{ kind: 'withdrawal', data: { id: 3 } }],
    ]);
    expect(JSON.stringify(updates)).not.toContain('secret');
    expect(JSON.stringify(updates)).not.toContain('"id":1');
  });

  it('refuses private topics to anonymous sockets and unknown private topics to anyone', async () => {
    const anonymous = await open({});
    await expect(subscribe(anonymous, 'me:account')).resolves.toEqual({
      ok: false,
      topic: 'me:account',
      error: 'notLoggedIn',
    });
    const { token } = await t.registerByEmail(uniqueEmail());
    const socket = await open({ token });
    await expect(subscribe(socket, 'me:nothing')).resolves.toMatchObject({ ok: false, error: 'invalidTopic' });
  });

  it('answers a command once per client id: a retry gets the first answer and does not act twice', async () => {
    const { token, user } = await t.registerByEmail(uniqueEmail());
    const socket = await open({ token });
    const send = (id: string, args: unknown): Promise<CommandAnswer> =>
      socket.emitWithAck(COMMAND_EVENT, { name: 'test.echo', id, args });
    const first = await send('client-0001', { text: 'hi' });
    expect(first).toEqual({ ok: true, data: { echo: 'hi', userId: user.id } });
    await expect(send('client-0001', { text: 'hi' })).resolves.toEqual(first);
    expect(ran.get(user.id)).toBe(1);
    await send('client-0002', { text: 'again' });
    expect(ran.get(user.id)).toBe(2);

    await expect(send('client-0003', { text: '' })).resolves.toEqual({ ok: false, error: 'invalidInput' });
    await expect(socket.emitWithAck(COMMAND_EVENT, { name: 'no.such', id: 'client-0004' })).resolves.toEqual({
      ok: false,
      error: 'invalidInput',
    });
    const anonymous = await open({});
    await expect(
      anonymous.emitWithAck(COMMAND_EVENT, { name: 'test.echo', id: 'client-0005', args: { text: 'x' } }),
    ).resolves.toEqual({ ok: false, error: 'notLoggedIn' });
  });

  it('says so when a snapshot cannot be read, and runs a command again after a server error', async () => {
    const { token } = await t.registerByEmail(uniqueEmail());
    const socket = await open({ token });
    await expect(subscribe(socket, 'me:broken')).resolves.toEqual({
      ok: false,
      topic: 'me:broken',
      error: 'serverError',
    });
    const send = () => socket.emitWithAck(COMMAND_EVENT, { name: 'test.flaky', id: 'client-flaky-1', args: {} });
    await expect(send()).resolves.toEqual({ ok: false, error: 'serverError' });
    // The failure was no answer to keep: the retry with the same id runs the command, and then its answer is kept.
    await vi.waitFor(async () => expect(await send()).toEqual({ ok: true, data: { runs: 2 } }));
    await expect(send()).resolves.toEqual({ ok: true, data: { runs: 2 } });
  });
});
