import { z } from 'zod/mini';

/**
 * Private per-user topics and commands over the tab's one socket (DESIGN "Realtime").
 *
 * A private topic is named `me:<name>` (`me:account`, later `me:orders`, `me:positions`, ...). The client subscribes
 * with the same `subscribe` / `unsubscribe` events as the market topics (with an acknowledgement); the server answers
 * with a snapshot of that user's state, then updates, each numbered per topic and per user: `seq` grows by exactly 1
 * per message (the snapshot carries the current number), so a jump means a missed message and the client asks for a
 * fresh snapshot by subscribing again. Anonymous sockets are refused private topics (`notLoggedIn`).
 *
 * A command is a request over the socket that needs an answer (chat messages later): `command` {name, id, args}
 * with an acknowledgement. `id` is the client's own message id: the same id sent again (a retry after a lost
 * acknowledgement) gets the first answer back and never acts twice.
 */
export const PRIVATE_EVENT = 'private' as const;
export const COMMAND_EVENT = 'command' as const;
export const PRIVATE_PREFIX = 'me:' as const;

export const privateTopicName = (name: string) => `${PRIVATE_PREFIX}${name}`;
export const isPrivateTopic = (topic: string) => topic.startsWith(PRIVATE_PREFIX);

/** One message on a private topic; `data` is typed by the topic's own schema. */
export const privateMessage = z.object({
  topic: z.string(),
  kind: z.enum(['snapshot', 'update']),
  seq: z.number().check(z.int(), z.gte(0)),
  ts: z.number().check(z.int()),
  data: z.unknown(),
});
export type PrivateMessage = z.infer<typeof privateMessage>;

export const commandRequest = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(64)),
  id: z.string().check(z.minLength(8), z.maxLength(64)),
  args: z.unknown(),
});
export type CommandRequest = z.infer<typeof commandRequest>;

/** The acknowledgement of a command: its result, or an error message key of the `errors` namespace. */
export type CommandAnswer = { ok: true; data: unknown } | { ok: false; error: string };

/** The `me:account` topic: account events (verification reviewed, deposit approved, ...). */
export const ACCOUNT_TOPIC = 'account' as const;
