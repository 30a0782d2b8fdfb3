import type { Kysely, Selectable } from 'kysely';
import {
  CHAT_CONVERSATION_EVENT,
  CHAT_MESSAGE_EVENT,
  type ChatConversation,
  type ChatFrom,
  type ChatMessage,
  type SupportTopic,
} from '../../../protocol/chat';
import type { Database } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
import { recordUserEvents } from '../../platform/realtime/user-events';
import type { ChatConversationsTable, ChatMessagesTable } from './tables';
import { withChat } from './tables';

export type ConversationRow = Selectable<ChatConversationsTable>;
export type MessageRow = Selectable<ChatMessagesTable>;

/** Who is looking: a member user, or a support operator (who sees every support conversation). */
export type Viewer = { kind: 'user'; userId: number } | { kind: 'operator'; operatorId: number; name: string };

export const userAuthor = (userId: number) => `u:${userId}`;
export const operatorAuthor = (operatorId: number) => `o:${operatorId}`;
export const SYSTEM_AUTHOR = 'system';

/** How a support user is named to operators: the username (never the e-mail or phone). */
export async function displayNameOf(db: Kysely<Database>, userId: number): Promise<string> {
  const row = await db.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst();
  return row?.username ?? `user${userId}`;
}

/** One message as `viewer` sees it (`from` is relative to the viewer; the client id only on their own). */
export function messageWire(row: MessageRow, viewer: Viewer): ChatMessage {
  const self = viewer.kind === 'user' ? userAuthor(viewer.userId) : operatorAuthor(viewer.operatorId);
  const own = row.author === self;
  let from: ChatFrom;
  if (row.author === SYSTEM_AUTHOR) from = 'system';
  else if (own) from = 'self';
  else if (row.author.startsWith('o:')) from = 'support';
  else from = viewer.kind === 'operator' ? 'user' : 'peer';
  return {
    conversation_id: row.conversation_id,
    seq: row.seq,
    from,
    // Users see "Support", never an operator's name (it is their console login); operators see who answered.
    author: from === 'support' && viewer.kind === 'user' ? '' : row.author_name,
    client_id: own ? row.client_id : null,
    kind: row.kind,
    text: row.text,
    image_id: row.image_id,
    at: row.created_at,
  };
}

interface MemberRow {
  user_id: number;
  role: 'user' | 'buyer' | 'merchant';
  display_name: string;
  read_seq: number;
}

async function membersOf(db: Kysely<Database>, conversationId: number): Promise<MemberRow[]> {
  return withChat(db)
    .selectFrom('chat_members')
    .select(['user_id', 'role', 'display_name', 'read_seq'])
    .where('conversation_id', '=', conversationId)
    .execute();
}

async function lastMessage(db: Kysely<Database>, row: ConversationRow): Promise<MessageRow | null> {
  if (row.last_seq === 0) return null;
  return (
    (await withChat(db)
      .selectFrom('chat_messages')
      .selectAll()
      .where('conversation_id', '=', row.id)
      .where('seq', '=', row.last_seq)
      .executeTakeFirst()) ?? null
  );
}

/** A conversation as `viewer` sees it: the peer's name, both read positions, unread count and the newest message. */
export async function conversationWire(
  db: Kysely<Database>,
  row: ConversationRow,
  viewer: Viewer,
  members?: MemberRow[],
): Promise<ChatConversation> {
  const all = members ?? (await membersOf(db, row.id));
  const last = await lastMessage(db, row);
  let readSeq: number;
  let peerReadSeq: number;
  let peer: string;
  if (viewer.kind === 'operator') {
    readSeq = row.support_read_seq;
    peerReadSeq = all[0]?.read_seq ?? 0;
    peer = all[0]?.display_name ?? '';
  } else {
    const me = all.find((m) => m.user_id === viewer.userId);
    const other = all.find((m) => m.user_id !== viewer.userId);
    readSeq = me?.read_seq ?? 0;
    peerReadSeq = row.kind === 'support' ? row.support_read_seq : (other?.read_seq ?? 0);
    peer = row.kind === 'support' ? '' : (other?.display_name ?? '');
  }
  return {
    id: row.id,
    kind: row.kind,
    topic: (row.topic as SupportTopic | null) ?? null,
    order_id: row.order_id,
    peer,
    state: row.state,
    last_seq: row.last_seq,
    read_seq: readSeq,
    peer_read_seq: peerReadSeq,
    unread: Math.max(0, row.last_seq - readSeq),
    last: last ? messageWire(last, viewer) : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The conversation `id` if the user is one of its members; `chatNotFound` for anyone else (nothing to learn). */
export async function memberConversation(db: Kysely<Database>, userId: number, id: number): Promise<ConversationRow> {
  const row = await withChat(db)
    .selectFrom('chat_conversations as c')
    .innerJoin('chat_members as m', 'm.conversation_id', 'c.id')
    .selectAll('c')
    .where('c.id', '=', id)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new BusinessError('chatNotFound', { field: 'id' });
  return row;
}

export async function conversationById(db: Kysely<Database>, id: number): Promise<ConversationRow | undefined> {
  return withChat(db).selectFrom('chat_conversations').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Tells every member of a conversation (each in their own view) that it changed: a new message or a read position.
 * Written in the transaction of the change, so an event exists exactly when the change committed.
 */
export async function announce(
  trx: Kysely<Database>,
  row: ConversationRow,
  at: number,
  message: MessageRow | null,
): Promise<void> {
  const members = await membersOf(trx, row.id);
  const events = [];
  for (const member of members) {
    const viewer: Viewer = { kind: 'user', userId: member.user_id };
    if (message)
      events.push({ userId: member.user_id, kind: CHAT_MESSAGE_EVENT, data: messageWire(message, viewer), at });
    events.push({
      userId: member.user_id,
      kind: CHAT_CONVERSATION_EVENT,
      data: await conversationWire(trx, row, viewer, members),
      at,
    });
  }
  await recordUserEvents(trx, events);
}

/**
 * Locks an open-or-closed conversation for a change. A no-op UPDATE takes the row lock on PostgreSQL and is harmless on
 * SQLite (whose write transaction already holds the database), so two sends never get the same number and a retried
 * client id sees the first send's committed message once it has the lock.
 */
export async function lockConversation(trx: Kysely<Database>, id: number): Promise<ConversationRow> {
  const row = await withChat(trx)
    .updateTable('chat_conversations')
    .set((eb) => ({ last_seq: eb.ref('last_seq') }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new BusinessError('chatNotFound', { field: 'conversation_id' });
  return row;
}

export interface NewMessage {
  author: string;
  authorName: string;
  clientId: string | null;
  kind: 'text' | 'image' | 'event';
  text: string | null;
  imageId: number | null;
}

/** Appends a message under the conversation's lock (see lockConversation) and announces it to the members. */
export async function appendMessage(
  trx: Kysely<Database>,
  locked: ConversationRow,
  message: NewMessage,
  at: number,
): Promise<{ row: MessageRow; conversation: ConversationRow }> {
  const seq = locked.last_seq + 1;
  await withChat(trx)
    .updateTable('chat_conversations')
    .set({ last_seq: seq, updated_at: at })
    .where('id', '=', locked.id)
    .where('last_seq', '=', locked.last_seq)
    .execute();
  const row = await withChat(trx)
    .insertInto('chat_messages')
    .values({
      conversation_id: locked.id,
      seq,
      author: message.author,
      author_name: message.authorName,
      client_id: message.clientId,
      kind: message.kind,
      text: message.text,
      image_id: message.imageId,
      created_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const conversation = { ...locked, last_seq: seq, updated_at: at };
  // The author has read their own message.
  if (message.author.startsWith('u:')) {
    await withChat(trx)
      .updateTable('chat_members')
      .set({ read_seq: seq })
      .where('conversation_id', '=', locked.id)
      .where('user_id', '=', Number(message.author.slice(2)))
      .execute();
  } else if (message.author.startsWith('o:')) {
    await withChat(trx)
      .updateTable('chat_conversations')
      .set({ support_read_seq: seq })
      .where('id', '=', locked.id)
      .execute();
    conversation.support_read_seq = seq;
  }
  await announce(trx, conversation, at, row);
  return { row, conversation };
}

export interface OrderConversationInput {
  orderId: number;
  buyerId: number;
  merchantId: number;
  buyerName: string;
  merchantName: string;
  at: number;
}

/** The chat of a C2C order between its buyer and its merchant; created in the order's own transaction. */
export async function openOrderConversation(trx: Kysely<Database>, input: OrderConversationInput): Promise<number> {
  const row = await withChat(trx)
    .insertInto('chat_conversations')
    .values({
      kind: 'order',
      topic: null,
      order_id: input.orderId,
      state: 'open',
      created_at: input.at,
      updated_at: input.at,
      closed_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await withChat(trx)
    .insertInto('chat_members')
    .values([
      { conversation_id: row.id, user_id: input.buyerId, role: 'buyer', display_name: input.buyerName.slice(0, 64) },
      {
        conversation_id: row.id,
        user_id: input.merchantId,
        role: 'merchant',
        display_name: input.merchantName.slice(0, 64),
      },
    ])
    .execute();
  return row.id;
}

/**
 * A server notice in a conversation (an order was paid, released, cancelled): `key` is a message key of the client's
 * `chat` namespace, so each member reads it in their own language.
 */
export async function postSystemMessage(
  trx: Kysely<Database>,
  conversationId: number,
  key: string,
  at: number,
): Promise<void> {
  const locked = await lockConversation(trx, conversationId);
  await appendMessage(
    trx,
    locked,
    { author: SYSTEM_AUTHOR, authorName: '', clientId: null, kind: 'event', text: key, imageId: null },
    at,
  );
}

/** Ends a conversation: no more messages (a closed support conversation stays readable as history). False: it was. */
export async function closeConversation(trx: Kysely<Database>, conversationId: number, at: number): Promise<boolean> {
  const locked = await lockConversation(trx, conversationId);
  if (locked.state === 'closed') return false;
  await withChat(trx)
    .updateTable('chat_conversations')
    .set({ state: 'closed', closed_at: at, updated_at: at })
    .where('id', '=', conversationId)
    .execute();
  await announce(trx, { ...locked, state: 'closed', closed_at: at, updated_at: at }, at, null);
  return true;
}
