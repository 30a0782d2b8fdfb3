import type { Kysely } from 'kysely';
import {
  CHAT_PAGE_MAX,
  type ChatConversation,
  type ChatKind,
  type ChatMessage,
  type ChatMessagesPage,
  type SupportTopic,
} from '../../../protocol/chat';
import type { DatabaseHandle } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { confirmClaimedRequest } from '../../platform/request-ids';
import type { RateLimiter } from '../../platform/security/rate-limit';
import { type AttachedReaders, attachUploads } from '../uploads';
import {
  announce,
  appendMessage,
  type ConversationRow,
  conversationWire,
  displayNameOf,
  lockConversation,
  type MessageRow,
  memberConversation,
  messageWire,
  userAuthor,
  type Viewer,
} from './conversations';
import { withChat } from './tables';

export interface ChatServices {
  database: DatabaseHandle;
  limiter: RateLimiter;
  now: () => number;
}

/** Messages one user may send per minute over all conversations (a person typing never reaches it). */
export const CHAT_MESSAGES_PER_MINUTE = 30;

/** The tag of a chat image in `uploads.attached_to`: members of the conversation may read it. */
export const chatUploadTag = (conversationId: number) => `chat:${conversationId}`;

export type SendInput = { conversation_id: number; text: string } | { conversation_id: number; image_id: number };

/** The message a client id already posted in a conversation, if any (a retry answers it instead of posting again). */
async function sentBefore(db: Kysely<Database>, conversationId: number, author: string, clientId: string) {
  return withChat(db)
    .selectFrom('chat_messages')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .where('author', '=', author)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
}

/**
 * A member sends a text or an image (an upload of their own, attached to the conversation). `clientId` is the
 * command id: the same id again returns the first message. Refused: someone else's or an unknown conversation
 * (`chatNotFound`), a closed one (`chatClosed`), more than CHAT_MESSAGES_PER_MINUTE (`rateLimited`).
 */
export async function sendAsUser(
  s: ChatServices,
  userId: number,
  clientId: string,
  input: SendInput,
): Promise<ChatMessage> {
  const { db } = s.database;
  const viewer: Viewer = { kind: 'user', userId };
  const author = userAuthor(userId);
  await memberConversation(db, userId, input.conversation_id);
  const earlier = await sentBefore(db, input.conversation_id, author, clientId);
  if (earlier) return messageWire(earlier, viewer);
  const refusal = await s.limiter.take([{ bucket: `chat:${userId}`, max: CHAT_MESSAGES_PER_MINUTE, windowMs: 60_000 }]);
  if (refusal)
    throw new BusinessError('rateLimited', { data: { retry_after: Math.ceil(refusal.retryAfterMs / 1000) } });
  const row = await writeTransaction(s.database, async (trx) => {
    const locked = await lockConversation(trx, input.conversation_id);
    // Another process may have committed the same client id while this one waited for the lock.
    const raced = await sentBefore(trx, locked.id, author, clientId);
    if (raced) return raced;
    if (locked.state !== 'open') throw new BusinessError('chatClosed', { field: 'conversation_id' });
    const member = await withChat(trx)
      .selectFrom('chat_members')
      .select('display_name')
      .where('conversation_id', '=', locked.id)
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    const image = 'image_id' in input;
    if (image) await attachUploads(trx, userId, { image_id: input.image_id }, chatUploadTag(locked.id));
    const at = s.now();
    // With the message: a sent message always leaves its command id's claim confirmed (platform/request-ids).
    await confirmClaimedRequest(trx, userId);
    const { row } = await appendMessage(
      trx,
      locked,
      {
        author,
        authorName: member.display_name,
        clientId,
        kind: image ? 'image' : 'text',
        text: image ? null : input.text,
        imageId: image ? input.image_id : null,
      },
      at,
    );
    return row;
  });
  return messageWire(row, viewer);
}

/** Marks a member's messages read up to `seq` (never backwards, never past the newest); both sides are told. */
export async function markReadAsUser(
  s: ChatServices,
  userId: number,
  input: { conversation_id: number; seq: number },
): Promise<ChatConversation> {
  const { db } = s.database;
  await memberConversation(db, userId, input.conversation_id);
  const row = await writeTransaction(s.database, async (trx) => {
    const locked = await lockConversation(trx, input.conversation_id);
    const seq = Math.min(input.seq, locked.last_seq);
    const result = await withChat(trx)
      .updateTable('chat_members')
      .set({ read_seq: seq })
      .where('conversation_id', '=', locked.id)
      .where('user_id', '=', userId)
      .where('read_seq', '<', seq)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) await announce(trx, locked, s.now(), null);
    return locked;
  });
  return conversationWire(db, row, { kind: 'user', userId });
}

/** A page of messages (see chat/messages in protocol/chat.ts), after checking who is looking. */
export async function messagesPage(
  db: Kysely<Database>,
  row: ConversationRow,
  viewer: Viewer,
  input: { after_seq?: number | undefined; before_seq?: number | undefined; limit?: number | undefined },
): Promise<ChatMessagesPage> {
  const limit = Math.min(input.limit ?? 50, CHAT_PAGE_MAX);
  const base = withChat(db).selectFrom('chat_messages').selectAll().where('conversation_id', '=', row.id);
  let rows: MessageRow[];
  if (input.after_seq !== undefined) {
    rows = await base.where('seq', '>', input.after_seq).orderBy('seq', 'asc').limit(limit).execute();
  } else {
    const newest = await base
      .$if(input.before_seq !== undefined, (q) => q.where('seq', '<', input.before_seq ?? 0))
      .orderBy('seq', 'desc')
      .limit(limit)
      .execute();
    rows = newest.reverse();
  }
  const first = rows[0]?.seq ?? (input.after_seq !== undefined ? input.after_seq + 1 : (input.before_seq ?? 1));
  return {
    conversation: await conversationWire(db, row, viewer),
    messages: rows.map((m) => messageWire(m, viewer)),
    has_older: first > 1,
  };
}

/** A user's conversations, newest activity first (at most 100: support history and open order chats). */
export async function userConversations(
  db: Kysely<Database>,
  userId: number,
  kind?: ChatKind,
): Promise<ChatConversation[]> {
  const rows = await withChat(db)
    .selectFrom('chat_conversations as c')
    .innerJoin('chat_members as m', 'm.conversation_id', 'c.id')
    .selectAll('c')
    .where('m.user_id', '=', userId)
    .$if(kind !== undefined, (q) => q.where('c.kind', '=', kind ?? 'support'))
    .orderBy('c.updated_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(100)
    .execute();
  const viewer: Viewer = { kind: 'user', userId };
  return Promise.all(rows.map((row) => conversationWire(db, row, viewer)));
}

/**
 * help/newchat: the user's open support conversation, or a new one on `topic` (one open at a time: a second tap, or
 * two tabs at once, get the same conversation).
 */
export async function openSupport(s: ChatServices, userId: number, topic: SupportTopic): Promise<ChatConversation> {
  const { db } = s.database;
  const row = await writeTransaction(s.database, async (trx) => {
    // The user's row is the lock that makes "one open conversation" hold on PostgreSQL too.
    await trx
      .updateTable('users')
      .set((eb) => ({ lang: eb.ref('lang') }))
      .where('id', '=', userId)
      .execute();
    const open = await withChat(trx)
      .selectFrom('chat_conversations as c')
      .innerJoin('chat_members as m', 'm.conversation_id', 'c.id')
      .selectAll('c')
      .where('m.user_id', '=', userId)
      .where('c.kind', '=', 'support')
      .where('c.state', '=', 'open')
      .executeTakeFirst();
    if (open) return open;
    const at = s.now();
    const created = await withChat(trx)
      .insertInto('chat_conversations')
      .values({
        kind: 'support',
        topic,
        order_id: null,
        state: 'open',
        created_at: at,
        updated_at: at,
        closed_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await withChat(trx)
      .insertInto('chat_members')
      .values({
        conversation_id: created.id,
        user_id: userId,
        role: 'user',
        display_name: await displayNameOf(trx, userId),
      })
      .execute();
    await announce(trx, created, at, null);
    return created;
  });
  return conversationWire(db, row, { kind: 'user', userId });
}

/** Chat images (`chat:<conversation>`) are readable by the conversation's members. */
export function chatUploadReaders(db: Kysely<Database>): AttachedReaders {
  return {
    prefix: 'chat',
    mayRead: async (userId, conversationId) =>
      (await withChat(db)
        .selectFrom('chat_members')
        .select('user_id')
        .where('conversation_id', '=', conversationId)
        .where('user_id', '=', userId)
        .executeTakeFirst()) !== undefined,
  };
}
