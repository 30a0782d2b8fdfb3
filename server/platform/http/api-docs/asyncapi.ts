import { z } from 'zod/mini';
import { accountEvent } from '../../../../protocol/account-events';
import { marketMessage } from '../../../../protocol/market';
import { commandRequest, privateMessage, privateTopicName } from '../../../../protocol/realtime';
import { commandAnswer, type MarketTopicSpec, socketEvents, topicAck } from '../../../../protocol/socket-surface';
import { type JsonObject, jsonSchemaOf } from './json-schema';
import type { DocsInfo } from './openapi';

/** A channel key: AsyncAPI tools expect plain identifiers, topic names carry `:` and `.`. */
export const channelKey = (kind: 'market' | 'private' | 'command', name: string) =>
  `${kind}_${name.replace(/[^A-Za-z0-9]+/g, '_')}`;

/** AsyncAPI's schema format is JSON Schema draft 07 plus its own keywords. */
const payload = (schema: z.ZodMiniType, io: 'input' | 'output') => jsonSchemaOf(schema, io, 'draft-07');

const message = (name: string, summary: string, schema: JsonObject) => ({
  name,
  summary,
  contentType: 'application/json',
  payload: schema,
});

const messageRef = (channel: string, name: string) => ({ $ref: `#/channels/${channel}/messages/${name}` });
const channelRef = (channel: string) => ({ $ref: `#/channels/${channel}` });

/** What the server registered on the socket, as each domain describes it. */
export interface SocketSurface {
  /** Public topics by kind (the market's realtime modules). */
  market: Readonly<Record<string, MarketTopicSpec>>;
  /** Private topics, by name without `me:`. */
  topics: readonly { name: string; summary: string; schema: z.ZodMiniType }[];
  commands: readonly { name: string; summary: string; args: z.ZodMiniType; answer: z.ZodMiniType }[];
}

/**
 * AsyncAPI 3.0 of the socket, from the server's side: the topics it sends (market and private), the `subscribe` /
 * `unsubscribe` requests and the commands it answers by acknowledgement. Every message travels as a socket.io event
 * (`x-socketio-event`): a topic's messages as `market` or `private` with the topic's name in `topic`.
 */
export function buildAsyncApi(info: DocsInfo, surface: SocketSurface): JsonObject {
  const channels: Record<string, JsonObject> = {};
  const operations: Record<string, JsonObject> = {};

  for (const [name, spec] of Object.entries(surface.market)) {
    const key = channelKey('market', name);
    const parameters = Object.fromEntries(
      Object.entries(spec.parameters).map(([param, p]) => [
        param,
        { description: p.description, ...('enum' in p && p.enum ? { enum: [...p.enum] } : {}) },
      ]),
    );
    const schema = payload(z.extend(marketMessage, { data: spec.data }), 'output');
    channels[key] = {
      address: spec.address,
      title: name,
      summary: spec.summary,
      description:
        'A public market topic: a snapshot on subscribe, then updates batched at most 4 a second, numbered per ' +
        'topic (`seq` +1 each; a jump means a missed message: subscribe again). A quiet topic gets an empty update ' +
        'every 2 s, so silence means stale.',
      ...(Object.keys(parameters).length ? { parameters } : {}),
      messages: { message: message(`market:${name}`, spec.summary, schema) },
      'x-socketio-event': socketEvents.market,
    };
    operations[`send_${key}`] = {
      action: 'send',
      channel: channelRef(key),
      summary: spec.summary,
      messages: [messageRef(key, 'message')],
    };
  }

  for (const spec of surface.topics) {
    const { name } = spec;
    const key = channelKey('private', name);
    const address = privateTopicName(name);
    const schema = payload(z.extend(privateMessage, { data: spec.schema }), 'output');
    channels[key] = {
      address,
      title: address,
      summary: spec.summary,
      description:
        "A private topic of the socket's user (a socket without a session is refused: notLoggedIn): a snapshot, then " +
        'updates numbered per subscription (`seq` +1 each; a jump means a missed message: subscribe again).',
      messages: { message: message(address, spec.summary, schema) },
      'x-socketio-event': socketEvents.private,
    };
    operations[`send_${key}`] = {
      action: 'send',
      channel: channelRef(key),
      summary: spec.summary,
      messages: [messageRef(key, 'message')],
    };
  }

  for (const event of [socketEvents.subscribe, socketEvents.unsubscribe] as const) {
    channels[event] = {
      address: event,
      title: event,
      summary: `${event} a topic (market or me:<name>), answered by acknowledgement.`,
      messages: {
        request: message(event, 'The topic name.', { type: 'string', maxLength: 64 }),
        ack: message(
          `${event} ack`,
          'ok, or an error key (invalidTopic, tooManyTopics, notLoggedIn).',
          payload(topicAck, 'output'),
        ),
      },
      'x-socketio-event': event,
    };
    operations[`receive_${event}`] = {
      action: 'receive',
      channel: channelRef(event),
      summary: `${event} a topic`,
      messages: [messageRef(event, 'request')],
      reply: { channel: channelRef(event), messages: [messageRef(event, 'ack')] },
    };
  }

  for (const spec of surface.commands) {
    const { name } = spec;
    const key = channelKey('command', name);
    const request = z.extend(commandRequest, { args: spec.args });
    const requestSchema = payload(request, 'input');
    channels[key] = {
      address: socketEvents.command,
      title: name,
      summary: spec.summary,
      description:
        "`command` {name, id, args} with an acknowledgement. `id` is a request id like any call's: the same id with " +
        'the same arguments gets the first answer back and never acts twice; with other arguments it is refused ' +
        '(requestIdReused). An error is a key of the errors table.',
      messages: {
        request: message(name, spec.summary, withConst(requestSchema, 'name', name)),
        answer: message(`${name} answer`, 'The acknowledgement.', payload(commandAnswer(spec.answer), 'output')),
      },
      'x-socketio-event': socketEvents.command,
    };
    operations[`receive_${key}`] = {
      action: 'receive',
      channel: channelRef(key),
      summary: spec.summary,
      messages: [messageRef(key, 'request')],
      reply: { channel: channelRef(key), messages: [messageRef(key, 'answer')] },
    };
  }

  channels.account_event = {
    address: socketEvents.account,
    title: socketEvents.account,
    summary: "Every account event of the socket's user, as it happens (the me:account topic carries the same).",
    messages: { message: message(socketEvents.account, 'One account event.', payload(accountEvent, 'output')) },
    'x-socketio-event': socketEvents.account,
  };
  operations.send_account_event = {
    action: 'send',
    channel: channelRef('account_event'),
    summary: 'Account events of the user',
    messages: [messageRef('account_event', 'message')],
  };

  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Tradewave socket',
      version: info.version,
      description:
        'One socket.io connection per tab at /socket.io. The handshake may carry `auth.token` (the session token of ' +
        'user/login); without a valid one the socket is anonymous and gets the market topics only. Generated from ' +
        'the zod schemas of protocol/.',
    },
    defaultContentType: 'application/json',
    servers: {
      app: {
        host: 'localhost:8080',
        protocol: 'ws',
        pathname: '/socket.io',
        description: "The app's own origin (socket.io over WebSocket, with HTTP long-polling as its fallback).",
      },
    },
    channels,
    operations,
  };
}

/** A command request's `name` is fixed per command. */
function withConst(schema: JsonObject, field: string, value: string): JsonObject {
  const properties = { ...(schema.properties as Record<string, unknown>), [field]: { type: 'string', const: value } };
  return { ...schema, properties };
}
