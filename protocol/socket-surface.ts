import { z } from 'zod/mini';
import { ACCOUNT_EVENT } from './account-events';
import { MARKET_EVENT, SUBSCRIBE_EVENT, UNSUBSCRIBE_EVENT } from './market';
import { COMMAND_EVENT, PRIVATE_EVENT } from './realtime';

/**
 * The shapes the socket's documents are made of that belong to no one topic: a public topic's address and
 * parameters, the acknowledgements of `subscribe` and of commands, and the socket.io events. Each topic and command
 * says its own summary and schemas where it is served (the market's topics in protocol/market-topics.ts, private
 * topics and commands beside their domain); the server builds the AsyncAPI document from what it registered.
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
  data: z.ZodMiniType;
}

/** The answer to `subscribe` and `unsubscribe` (an error is a key of the errors table). */
export const topicAck = z.object({ ok: z.boolean(), topic: z.string(), error: z.optional(z.string()) });

/** A command's acknowledgement: its data, or an error key of the errors table. */
export const commandAnswer = (data: z.ZodMiniType) =>
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
