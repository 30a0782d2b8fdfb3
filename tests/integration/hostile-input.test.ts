import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en/errors.json';
import { errorEnvelope } from '../../protocol';
import { OPS_ROLES, OPS_TOKEN_HEADER, opsConsoleCalls } from '../../protocol/ops-console';
import { opsInspectionCalls } from '../../protocol/ops-inspection';
import { opsNewsCalls } from '../../protocol/ops-news';
import { opsAppealCalls, opsHelpCalls, opsSupportCalls } from '../../protocol/ops-support';
import { COMMAND_EVENT, type CommandAnswer } from '../../protocol/realtime';
import { calls } from '../../server/domains';
import { PasswordHasher } from '../../server/domains/account';
import { CardVault } from '../../server/domains/bank-cards';
import { withChat } from '../../server/domains/chat';
import { createOperator, totpCode } from '../../server/domains/operators';
import {
  DATABASES,
  openTestDatabase,
  startTestApp,
  TEST_HASH_COST,
  type TestApp,
  type TestDatabase,
  uniqueEmail,
} from './harness';
import { uploadedId } from './uploads-helpers';

/** A JSON array nested `depth` levels deep: `[[[…]]]`, two bytes a level. */
const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
/** A JSON object nested `depth` levels deep: `{"a":{"a":…"x"}}`, six bytes a level. */
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`;

const isErrorKey = (key: string) => Object.hasOwn(en, key);

const consoleTables = [
  opsConsoleCalls,
  opsSupportCalls,
  opsAppealCalls,
  opsHelpCalls,
  opsNewsCalls,
  opsInspectionCalls,
];

describe.each(DATABASES)('hostile input on %s', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  let url: string;
  /** Every line the server logs: none may be a RangeError or anything at error level. */
  const logs: string[] = [];
  const sockets: Socket[] = [];
  const dataKey = new Uint8Array(randomBytes(32));

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    t = await startTestApp(database.handle, {
      dataKey,
      logger: { level: 'info', stream: { write: (line: string) => void logs.push(line) } },
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await t?.close();
    await database?.close();
  });

  async function open(token: string): Promise<Socket> {
    const socket = connect(url, { auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    return socket;
  }

  function expectNothingCrashed() {
    const failures = logs.filter((line) => /RangeError|call stack/i.test(line) || JSON.parse(line).level >= 50);
    expect(failures).toEqual([]);
  }

  /** The process still serves: a login with a wrong password is answered as always. */
  async function expectStillServing() {
    const response = await postJson('user/login', JSON.stringify({ account: 'nobody@example.com', password: 'x' }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ type: 'error' });
  }

  const postJson = (path: string, payload: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/${path}`,
      payload,
      headers: { 'content-type': 'application/json', lang: 'en', ...headers },
    });

  /** An operator holding every role, signed in: its console token. */
  async function operatorToken(): Promise<string> {
    const services = {
      database: database.handle,
      now: t.clock.now,
      hasher: new PasswordHasher(TEST_HASH_COST),
      vault: new CardVault(dataKey),
    };
    const name = `deep${kind}`;
    const password = 'operator-secret-1';
    const created = await createOperator(services, { name, roles: [...OPS_ROLES], password });
    if (!created.ok) throw new Error(created.problem);
    const code = totpCode(created.secret, t.clock.now());
    const response = await postJson('ops/login', JSON.stringify({ name, password, code }));
    return response.json<{ data: { token: string } }>().data.token;
  }

  it('refuses a body nested 10,000 deep on a user call and a console call before login, in the envelope', async () => {
    for (const path of ['user/login', 'ops/login']) {
      for (const body of [`{"a":${deepArray(10_000)}}`, deepObject(10_000)]) {
        const response = await postJson(path, body);
        expect(response.statusCode, path).toBe(400);
        expect(errorEnvelope.parse(response.json())).toMatchObject({ type: 'error', message: en.bodyTooDeep });
      }
      // 100,000 levels are over the body limit: refused before anything reads them.
      const huge = await postJson(path, `{"a":${deepArray(100_000)}}`);
      expect(huge.statusCode, path).toBe(413);
      expect(errorEnvelope.parse(huge.json())).toMatchObject({ message: en.requestTooLarge });
    }
    await expectStillServing();
    expectNothingCrashed();
  });

  it('takes a body at the published depth and refuses one level more', async () => {
    // The body is level 1, so seven arrays inside it make eight levels.
    const atLimit = await postJson('user/login', `{"account":${deepArray(7)}}`);
    expect(atLimit.statusCode).toBe(200);
    expect(atLimit.json().message).not.toBe(en.bodyTooDeep);
    const over = await postJson('user/login', `{"account":${deepArray(8)}}`);
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe(en.bodyTooDeep);
  });

  it('refuses a 10,000-deep body on every user and console call that takes a body, signed in', async () => {
    const { token } = await t.registerByEmail(uniqueEmail());
    const opsToken = await operatorToken();
    const body = `{"a":${deepArray(10_000)}}`;
    const targets = [
      ...Object.entries(calls).map(([path, spec]) => ({
        path,
        method: spec.method,
        headers: { authorization: token },
      })),
      ...consoleTables.flatMap((table) =>
        Object.entries(table).map(([path, spec]) => ({
          path,
          method: spec.method,
          headers: { [OPS_TOKEN_HEADER]: opsToken },
        })),
      ),
    ].filter((target) => target.method !== 'GET');
    expect(targets.length).toBeGreaterThan(60);
    for (const { path, method, headers } of targets) {
      const response = await t.app.inject({
        method,
        url: `/api/${path}`,
        payload: body,
        headers: { 'content-type': 'application/json', lang: 'en', ...headers },
      });
      expect({ path, status: response.statusCode, message: response.json().message }).toEqual({
        path,
        status: 400,
        message: en.bodyTooDeep,
      });
    }
    expectNothingCrashed();
  });

  /** Sends a socket.io EVENT packet as raw text (no client-side walk over the arguments) and waits for its ack. */
  function rawCommand(socket: Socket, ackId: number, request: string): Promise<CommandAnswer> {
    const engine = socket.io.engine;
    return new Promise((resolve) => {
      const onMessage = (data: unknown) => {
        if (typeof data !== 'string' || !data.startsWith(`3${ackId}[`)) return;
        engine.off('message', onMessage);
        resolve((JSON.parse(data.slice(`3${ackId}`.length)) as [CommandAnswer])[0]);
      };
      engine.on('message', onMessage);
      engine.write(`2${ackId}["${COMMAND_EVENT}",${request}]`);
    });
  }

  it('answers a socket command nested 10,000 and 100,000 deep with a key, and keeps serving', async () => {
    const { token } = await t.registerByEmail(uniqueEmail());
    const socket = await open(token);
    let ackId = 90_000;
    for (const name of t.app.channels.commandNames()) {
      for (const depth of [10_000, 100_000]) {
        const request = `{"name":"${name}","id":"deep-${name}-${depth}","args":${deepArray(depth)}}`;
        await expect(rawCommand(socket, ++ackId, request)).resolves.toEqual({ ok: false, error: 'bodyTooDeep' });
      }
    }
    // A binary packet is rebuilt by socket.io's parser before any handler sees it: a deep one drops the connection.
    const dropped = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    socket.io.engine.write(`51-${++ackId}["${COMMAND_EVENT}",{"name":"chat.send","args":${deepArray(100_000)}}]`);
    socket.io.engine.write(new Uint8Array([1, 2, 3]));
    await expect(dropped).resolves.toBe('transport close');

    const again = await open(token);
    await expect(
      again.emitWithAck(COMMAND_EVENT, { name: 'chat.read', id: 'after-deep-1', args: { conversation_id: 1, seq: 0 } }),
    ).resolves.toEqual({ ok: false, error: 'chatNotFound' });
    await expectStillServing();
    expectNothingCrashed();
  });

  it('refuses every socket command with bad arguments by a key of the errors table', async () => {
    const { token } = await t.registerByEmail(uniqueEmail());
    const socket = await open(token);
    const names = t.app.channels.commandNames();
    expect(names).toEqual(expect.arrayContaining(['chat.send', 'chat.read']));
    const badArgs: unknown[] = [
      null,
      undefined,
      'text',
      7,
      true,
      [],
      [1, 2],
      {},
      { conversation_id: null },
      { conversation_id: '1', seq: '0', text: 'hi', image_id: '2' },
      { conversation_id: -1, seq: -1, text: 'hi' },
      { conversation_id: 0, seq: 0, image_id: 0 },
      { conversation_id: 1.5, seq: 1.5, text: 5 },
      { conversation_id: 2 ** 64, seq: -(2 ** 64), image_id: -3 },
      { conversation_id: 1, seq: 0, text: 'x'.repeat(3000) },
      { conversation_id: 1, seq: 0, text: '   ' },
      { conversation_id: 1, seq: 0, text: 'hi', image_id: 1 },
    ];
    let serial = 0;
    const answers: { name: string; args: unknown; answer: CommandAnswer }[] = [];
    for (const name of names) {
      for (const args of badArgs) {
        const answer = (await socket.emitWithAck(COMMAND_EVENT, {
          name,
          id: `bad-args-${++serial}`,
          args,
        })) as CommandAnswer;
        answers.push({ name, args, answer });
      }
    }
    // The request itself malformed: no name, a short id, an unknown command.
    for (const request of [null, 'x', { id: 'short', name: 'chat.send' }, { name: 'no.such', id: 'client-0009' }]) {
      answers.push({ name: '-', args: request, answer: await socket.emitWithAck(COMMAND_EVENT, request) });
    }
    const notKeys = answers.filter(({ answer }) => answer.ok || !isErrorKey(answer.error));
    expect(notKeys).toEqual([]);
  });

  it('refuses a chat message carrying both a text and an image, and posts neither', async () => {
    const { token } = await t.registerByEmail(uniqueEmail());
    const opened = await t.call('chat/support/open', { topic: 'other' }, { token });
    const conversationId = (opened.body.data as { id: number }).id;
    const image = await uploadedId(t, token);
    const socket = await open(token);
    const send = (id: string, args: unknown) =>
      socket.emitWithAck(COMMAND_EVENT, { name: 'chat.send', id, args }) as Promise<CommandAnswer>;

    await expect(
      send('both-00001', { conversation_id: conversationId, text: 'look', image_id: image }),
    ).resolves.toEqual({ ok: false, error: 'chatTextOrImage' });
    const stored = () =>
      withChat(t.db)
        .selectFrom('chat_messages')
        .selectAll()
        .where('conversation_id', '=', conversationId)
        .orderBy('seq')
        .execute();
    expect(await stored()).toEqual([]);

    // Each on its own goes through, as the client sends them.
    await expect(send('text-00001', { conversation_id: conversationId, text: 'look' })).resolves.toMatchObject({
      ok: true,
      data: { kind: 'text', text: 'look', image_id: null },
    });
    await expect(send('image-0001', { conversation_id: conversationId, image_id: image })).resolves.toMatchObject({
      ok: true,
      data: { kind: 'image', text: null, image_id: image },
    });
    expect((await stored()).map((m) => m.kind)).toEqual(['text', 'image']);
  });
});
