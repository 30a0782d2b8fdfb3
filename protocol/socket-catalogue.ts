import { z } from 'zod';
import { ACCOUNT_EVENT, accountEvent } from './account-events';
import { C2C_TOPIC, c2cTopicMessage } from './c2c';
import {
  CHAT_READ_COMMAND,
  CHAT_SEND_COMMAND,
  CHAT_TOPIC,
  chatConversation,
  chatMessage,
  chatReadArgs,
  chatSendArgs,
  chatTopicMessage,
} from './chat';
import { IEO_TOPIC, ieoTopicMessage } from './ieo';
import { POSITIONS_TOPIC, positionsTopicMessage } from './lever';
import { candle, MARKET_EVENT, PERIODS, quote, SUBSCRIBE_EVENT, trade, UNSUBSCRIBE_EVENT } from './market';
import { OPTIONS_TOPIC, optionsTopicMessage } from './options';
import { ACCOUNT_TOPIC, COMMAND_EVENT, PRIVATE_EVENT } from './realtime';
import { ORDERS_TOPIC, ordersTopicMessage } from './spot';

/**
 * Every socket topic and command in one table, with the schemas of what travels (the socket's counterpart of
 * calls.ts). The server registers its topics and commands from the domains; this table is what the published
 * AsyncAPI document and the reference page are made from, and a test holds it equal to what the server registers.
 * Nothing in the client imports it, so it costs no bundle weight.
 */

/** One part of a topic's address that the subscriber chooses (`kline:{symbol}:{period}`). */
export interface TopicParameter {
  description: string;
  enum?: readonly string[];
}

export interface MarketTopicSpec {
  /** The topic name, with `{parameter}` where the subscriber fills one in. */
  address: string;
  parameters: Readonly<Record<string, TopicParameter>>;
  summary: string;
  /** `data` of the snapshot and of every update (an update carries only what changed; empty: a heartbeat). */
  data: z.ZodType;
}

export interface PrivateTopicSpec {
  summary: string;
  /** `data` of each message on the topic (its own snapshot and update shapes). */
  data: z.ZodType;
}

export interface CommandSpec {
  summary: string;
  args: z.ZodType;
  /** `data` of an `{ok: true}` acknowledgement. */
  answer: z.ZodType;
}

const symbolParameter: TopicParameter = { description: 'An instrument symbol: 1 to 12 of A-Z and 0-9 (BTC, AAPL).' };

/** Public market topics: a snapshot on subscribe, then batched updates numbered per topic. */
export const marketTopics = {
  quotes: {
    address: 'quotes',
    parameters: {},
    summary: 'Every coin quote; updates carry the instruments that changed.',
    data: z.array(quote),
  },
  stocks: {
    address: 'stocks',
    parameters: {},
    summary: 'Every US stock quote; updates carry the instruments that changed.',
    data: z.array(quote),
  },
  kline: {
    address: 'kline:{symbol}:{period}',
    parameters: {
      symbol: symbolParameter,
      period: { description: 'Candle timeframe, or the time-share line.', enum: PERIODS },
    },
    summary: 'Candles of one instrument and period: the latest 300, then the bars that changed.',
    data: z.array(candle),
  },
  trades: {
    address: 'trades:{symbol}',
    parameters: { symbol: symbolParameter },
    summary: 'Recent trades of one instrument: the latest 50, then the new ones, newest first.',
    data: z.array(trade),
  },
} as const satisfies Record<string, MarketTopicSpec>;

/** Private topics, subscribed to as `me:<name>` by a logged-in socket. */
export const privateTopics = {
  [ACCOUNT_TOPIC]: {
    summary:
      'Account events (verification reviewed, deposit or withdrawal decided, ...): the latest, then each new one.',
    data: z.array(accountEvent),
  },
  [ORDERS_TOPIC]: { summary: 'Spot orders: the open ones, then every change.', data: ordersTopicMessage },
  [OPTIONS_TOPIC]: {
    summary: 'Option contracts of both books: the open ones, then every change.',
    data: optionsTopicMessage,
  },
  [POSITIONS_TOPIC]: {
    summary: 'Lever orders and positions of both books: the open ones, then every change.',
    data: positionsTopicMessage,
  },
  [IEO_TOPIC]: { summary: 'IEO subscriptions: all of them, then every change.', data: ieoTopicMessage },
  [C2C_TOPIC]: {
    summary: "C2C orders on either side: the open ones, then every change of any of the user's orders.",
    data: c2cTopicMessage,
  },
  [CHAT_TOPIC]: {
    summary: 'Chat: the open conversations with their last numbers, then each new message and conversation change.',
    data: chatTopicMessage,
  },
} as const satisfies Record<string, PrivateTopicSpec>;

/** Commands: `command` {name, id, args} with an acknowledgement; a retry with the same id gets the first answer. */
export const socketCommands = {
  [CHAT_SEND_COMMAND]: {
    summary: "Sends a text or an image (one of the user's uploads) to a conversation; `id` is the message's client id.",
    args: chatSendArgs,
    answer: chatMessage,
  },
  [CHAT_READ_COMMAND]: {
    summary: 'Marks the messages of a conversation read up to `seq` (never past the newest).',
    args: chatReadArgs,
    answer: chatConversation,
  },
} as const satisfies Record<string, CommandSpec>;

/** The answer to `subscribe` and `unsubscribe` (an error is a key of the errors table). */
export const topicAck = z.object({ ok: z.boolean(), topic: z.string(), error: z.string().optional() });

/** A command's acknowledgement: its data, or an error key of the errors table. */
export const commandAnswer = (data: z.ZodType) =>
  z.union([z.object({ ok: z.literal(true), data }), z.object({ ok: z.literal(false), error: z.string() })]);

/** The socket.io events that carry all of the above. */
export const socketEvents = {
  subscribe: SUBSCRIBE_EVENT,
  unsubscribe: UNSUBSCRIBE_EVENT,
  market: MARKET_EVENT,
  private: PRIVATE_EVENT,
  command: COMMAND_EVENT,
  account: ACCOUNT_EVENT,
} as const;
