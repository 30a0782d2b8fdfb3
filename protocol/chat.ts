import { z } from 'zod/mini';
import { call, none } from './call-spec';
import { recordIdField } from './fields';

/**
 * Chat: one engine for the customer-service chat (a user and the support operators) and a C2C order's chat (its buyer
 * and its merchant). A conversation numbers its messages 1, 2, 3, ... (`seq`), so a client that saw up to n asks for
 * what follows n after a reconnect and nothing is lost or shown twice. Sending is a socket command (`chat.send`) whose
 * command id is the message's client id: a retry returns the first message and never posts twice (also across
 * processes: the id is unique per author in the database). Texts are plain text; images are uploads of the sender.
 */

export const CHAT_KINDS = ['support', 'order'] as const;
export type ChatKind = (typeof CHAT_KINDS)[number];
/** Longest message text, in characters. */
export const CHAT_TEXT_MAX = 2000;
/** Messages per page of history. */
export const CHAT_PAGE_MAX = 100;
/** Support topics a user picks when starting a conversation (help/newchat). */
export const SUPPORT_TOPICS = ['account', 'deposit', 'withdrawal', 'trading', 'c2c', 'other'] as const;
export type SupportTopic = (typeof SUPPORT_TOPICS)[number];

/**
 * Who wrote a message, as the viewer sees it: `self`; `peer` (the other side of an order chat); `support` (an
 * operator, for a user); `user` (the user, for an operator); `system` (the server: order events).
 */
export const CHAT_FROM = ['self', 'peer', 'support', 'user', 'system'] as const;
export type ChatFrom = (typeof CHAT_FROM)[number];

export const chatMessage = z.object({
  conversation_id: z.number().check(z.int()),
  seq: z.number().check(z.int(), z.gte(1)),
  from: z.enum(CHAT_FROM),
  /** The author's display name (nickname, or the operator's public name); empty for the system. */
  author: z.string(),
  /** The sender's client id: only on the viewer's own messages (it matches a pending send). */
  client_id: z.nullable(z.string()),
  kind: z.enum(['text', 'image', 'event']),
  /** The text (kind text), or the event's message key of the chat namespace (kind event). */
  text: z.nullable(z.string()),
  /** The upload id of an image (kind image); members fetch it with upload/file. */
  image_id: z.nullable(z.number().check(z.int())),
  at: z.number().check(z.int()),
});
export type ChatMessage = z.infer<typeof chatMessage>;

export const chatConversation = z.object({
  id: z.number().check(z.int()),
  kind: z.enum(CHAT_KINDS),
  /** Support: the topic the user picked; order: null. */
  topic: z.nullable(z.enum(SUPPORT_TOPICS)),
  /** Order chat: the C2C order it belongs to. */
  order_id: z.nullable(z.number().check(z.int())),
  /** The other side's display name (merchant or buyer nickname; for support the empty string). */
  peer: z.string(),
  /** Open conversations take messages; a closed support conversation is history (the user may start a new one). */
  state: z.enum(['open', 'closed']),
  /** The number of the newest message (0: none yet). */
  last_seq: z.number().check(z.int(), z.gte(0)),
  /** The newest message the viewer has read, and the newest the other side has read (read receipts). */
  read_seq: z.number().check(z.int(), z.gte(0)),
  peer_read_seq: z.number().check(z.int(), z.gte(0)),
  unread: z.number().check(z.int(), z.gte(0)),
  /** The newest message, for lists. */
  last: z.nullable(chatMessage),
  created_at: z.number().check(z.int()),
  updated_at: z.number().check(z.int()),
});
export type ChatConversation = z.infer<typeof chatConversation>;

const seqField = z.pipe(
  z.string({ error: 'invalidInput' }).check(z.regex(/^\d{1,12}$/, { error: 'invalidInput' })),
  z.transform(Number),
);

/** chat/list: the caller's conversations of a kind (default all), newest activity first. */
export const chatListRequest = z.object({ kind: z.optional(z.enum(CHAT_KINDS, { error: 'invalidInput' })) });
export const chatListResponse = z.object({ conversations: z.array(chatConversation) });

/** chat/info: one conversation of the caller's (`chatNotFound` for anyone else's). */
export const chatIdRequest = z.object({ id: recordIdField });

/**
 * chat/messages: a page of one conversation: the messages after `after_seq` (oldest first, to catch up) or, with
 * `before_seq`, the page before it (to scroll back); without either, the newest page.
 */
export const chatMessagesRequest = z.object({
  id: recordIdField,
  after_seq: z.optional(seqField),
  before_seq: z.optional(seqField),
  limit: z.optional(
    z.pipe(
      z.pipe(
        z.string({ error: 'invalidInput' }).check(z.regex(/^\d{1,3}$/, { error: 'invalidInput' })),
        z.transform(Number),
      ),
      z.number().check(z.int(), z.gte(1, { error: 'invalidInput' }), z.lte(CHAT_PAGE_MAX, { error: 'invalidInput' })),
    ),
  ),
});
export const chatMessagesResponse = z.object({
  conversation: chatConversation,
  messages: z.array(chatMessage),
  /** Older messages exist before the first of this page. */
  has_older: z.boolean(),
});
export type ChatMessagesPage = z.infer<typeof chatMessagesResponse>;

/** chat/support/open (help/newchat): start a support conversation, or get the open one (one at a time). */
export const chatSupportOpenRequest = z.object({
  topic: z.enum(SUPPORT_TOPICS, { error: 'chatTopicRequired' }),
});

/** set/get_customer_url: where customer service lives: the app's own chat, or an outside address the operator set. */
export const customerUrlResponse = z.object({ url: z.string(), internal: z.boolean() });

/** Socket commands (protocol/realtime.ts): send a message (text or image) and mark messages read. */
export const CHAT_SEND_COMMAND = 'chat.send' as const;
export const CHAT_READ_COMMAND = 'chat.read' as const;
/** Every refusal of a command's arguments is a key of the errors table, as on HTTP (never zod's English text). */
const invalid = { error: 'invalidInput' } as const;
const positiveIdArg = z.number(invalid).check(z.int(invalid), z.positive(invalid));
const chatTextArg = z
  .string({ error: 'chatTextRequired' })
  .check(z.trim(), z.minLength(1, { error: 'chatTextRequired' }), z.maxLength(CHAT_TEXT_MAX, { error: 'tooLong' }));
/**
 * A message is a text or an image, never both: a message carries one kind (the client sends an image and a text as
 * two messages), so both at once are refused (`chatTextOrImage`) rather than one of them dropped.
 */
export const chatSendArgs = z.pipe(
  z.object(
    { conversation_id: positiveIdArg, text: z.optional(chatTextArg), image_id: z.optional(positiveIdArg) },
    invalid,
  ),
  z.transform(
    (
      { conversation_id, text, image_id },
      ctx,
    ): { conversation_id: number; text: string } | { conversation_id: number; image_id: number } => {
      if (text !== undefined && image_id !== undefined) {
        ctx.issues.push({ code: 'custom', message: 'chatTextOrImage', path: ['image_id'], input: ctx.value });
        return z.NEVER;
      }
      if (image_id !== undefined) return { conversation_id, image_id };
      if (text !== undefined) return { conversation_id, text };
      ctx.issues.push({ code: 'custom', message: 'chatTextRequired', path: ['text'], input: ctx.value });
      return z.NEVER;
    },
  ),
);
export type ChatSendArgs = z.input<typeof chatSendArgs>;
export const chatReadArgs = z.object(
  { conversation_id: positiveIdArg, seq: z.number(invalid).check(z.int(invalid), z.gte(0, invalid)) },
  invalid,
);

/** User events: a new message, a read receipt, a conversation's state; they feed the private `chat` topic. */
export const CHAT_MESSAGE_EVENT = 'chat_message' as const;
export const CHAT_CONVERSATION_EVENT = 'chat_conversation' as const;
export const CHAT_TOPIC = 'chat' as const;
/**
 * The private `chat` topic: the caller's open conversations (with their last numbers and unread counts), then each new
 * message and each change of a conversation (read receipt, closed). A client compares `last_seq` with what it has and
 * asks chat/messages for anything after it.
 */
export const chatTopicMessage = z.union([
  z.object({ kind: z.literal('snapshot'), conversations: z.array(chatConversation) }),
  z.object({ kind: z.literal('message'), message: chatMessage }),
  z.object({ kind: z.literal('conversation'), conversation: chatConversation }),
]);
export type ChatTopicMessage = z.infer<typeof chatTopicMessage>;

export const chatCalls = {
  'chat/list': call('POST', true, chatListRequest, chatListResponse),
  'chat/info': call('GET', true, chatIdRequest, chatConversation),
  'chat/messages': call('GET', true, chatMessagesRequest, chatMessagesResponse),
  'chat/support/open': call('POST', true, chatSupportOpenRequest, chatConversation),
  'set/get_customer_url': call('POST', false, none, customerUrlResponse),
} as const;
