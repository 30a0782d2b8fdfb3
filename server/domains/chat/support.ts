import type { Kysely } from 'kysely';
import type { ChatConversation, ChatMessage, ChatMessagesPage } from '../../../protocol/chat';
import { platformPrincipalId } from '../../ledger';
import { recordAudit } from '../../platform/audit';
import type { Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { type OutsideUrl, readOutsideUrl, writeOutsideUrl } from '../../platform/settings';
import { attachUploads } from '../uploads';
import {
  announce,
  appendMessage,
  type ConversationRow,
  closeConversation,
  conversationById,
  conversationWire,
  lockConversation,
  messageWire,
  operatorAuthor,
  type Viewer,
} from './conversations';
import { type ChatServices, chatUploadTag, messagesPage } from './messages';
import { withChat } from './tables';

/**
 * The support side of customer-service chat: any operator with the support role reads every support conversation and
 * answers as "support" (users see the operator's public name, never their account). Used by the console and the CLI.
 */

export interface SupportOperator {
  id: number;
  /** The name users see and the audit log records. */
  name: string;
}

const operatorViewer = (operator: SupportOperator): Viewer => ({
  kind: 'operator',
  operatorId: operator.id,
  name: operator.name,
});

/** A support conversation by id (`chatNotFound` for order chats: operators see those only through an appeal). */
export async function supportConversation(db: Kysely<Database>, id: number): Promise<ConversationRow> {
  const row = await conversationById(db, id);
  if (row?.kind !== 'support') throw new BusinessError('chatNotFound', { field: 'id' });
  return row;
}

/** The inbox: support conversations (open first by default), newest activity first, with unread counts for support. */
export async function supportInbox(
  db: Kysely<Database>,
  operator: SupportOperator,
  options: { state?: 'open' | 'closed'; limit?: number } = {},
): Promise<ChatConversation[]> {
  const rows = await withChat(db)
    .selectFrom('chat_conversations')
    .selectAll()
    .where('kind', '=', 'support')
    .where('state', '=', options.state ?? 'open')
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(Math.min(options.limit ?? 50, 200))
    .execute();
  const viewer = operatorViewer(operator);
  return Promise.all(rows.map((row) => conversationWire(db, row, viewer)));
}

/** An operator answers a support conversation; the same client id twice posts once. */
export async function sendAsOperator(
  s: ChatServices,
  operator: SupportOperator,
  clientId: string,
  input: { conversation_id: number; text: string } | { conversation_id: number; image_id: number },
): Promise<ChatMessage> {
  const author = operatorAuthor(operator.id);
  await supportConversation(s.database.db, input.conversation_id);
  const row = await writeTransaction(s.database, async (trx) => {
    const locked = await lockConversation(trx, input.conversation_id);
    const earlier = await withChat(trx)
      .selectFrom('chat_messages')
      .selectAll()
      .where('conversation_id', '=', locked.id)
      .where('author', '=', author)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    if (earlier) return earlier;
    if (locked.state !== 'open') throw new BusinessError('chatClosed', { field: 'conversation_id' });
    const image = 'image_id' in input;
    // An operator's photo belongs to the platform principal (operators own no user account) until attached here.
    if (image) {
      const owner = await platformPrincipalId(trx, s.now);
      await attachUploads(trx, owner, { image_id: input.image_id }, chatUploadTag(locked.id));
    }
    const at = s.now();
    const { row } = await appendMessage(
      trx,
      locked,
      {
        author,
        authorName: operator.name,
        clientId,
        kind: image ? 'image' : 'text',
        text: image ? null : input.text,
        imageId: image ? input.image_id : null,
      },
      at,
    );
    // What an operator told a user is on record with the conversation (a retry above posts and records nothing).
    await recordAudit(trx, {
      action: 'support.send',
      subjectType: 'chat_conversation',
      subjectId: locked.id,
      operator: operator.name,
      detail: { seq: row.seq, kind: row.kind, ...(image ? { image_id: input.image_id } : {}) },
      at,
    });
    return row;
  });
  return messageWire(row, operatorViewer(operator));
}

/** Support has read a conversation up to `seq` (the user sees the receipt; audited: who read what, when). */
export async function markReadAsOperator(
  s: ChatServices,
  operator: SupportOperator,
  id: number,
  seq: number,
): Promise<void> {
  await supportConversation(s.database.db, id);
  await writeTransaction(s.database, async (trx) => {
    const locked = await lockConversation(trx, id);
    const upTo = Math.min(seq, locked.last_seq);
    // Nothing newer read: no receipt, no entry.
    if (upTo <= locked.support_read_seq) return;
    const at = s.now();
    await withChat(trx)
      .updateTable('chat_conversations')
      .set({ support_read_seq: upTo })
      .where('id', '=', id)
      .execute();
    await announce(trx, { ...locked, support_read_seq: upTo }, at, null);
    await recordAudit(trx, {
      action: 'support.read',
      subjectType: 'chat_conversation',
      subjectId: id,
      operator: operator.name,
      detail: { seq: upTo },
      at,
    });
  });
}

/** Closes a support conversation (audited); the user may start a new one. */
export async function closeSupport(s: ChatServices, operator: SupportOperator, id: number): Promise<void> {
  await supportConversation(s.database.db, id);
  await writeTransaction(s.database, async (trx) => {
    const at = s.now();
    // Closing a closed conversation changes nothing and records nothing.
    if (!(await closeConversation(trx, id, at))) return;
    await recordAudit(trx, {
      action: 'support.close',
      subjectType: 'chat_conversation',
      subjectId: id,
      operator: operator.name,
      at,
    });
  });
}

export { operatorViewer };

/** Where customer service lives (set/get_customer_url): the app's own chat unless an operator set an outside URL. */
export const CUSTOMER_URL_KEY = 'support.customer_url';
export const INTERNAL_CUSTOMER_URL = '/pages/help/center/chat';
const CUSTOMER: OutsideUrl = { key: CUSTOMER_URL_KEY, internal: INTERNAL_CUSTOMER_URL, action: 'support_url.set' };

export const customerUrl = (db: Kysely<Database>) => readOutsideUrl(db, CUSTOMER);

/** Sets (or with null clears) the outside customer-service URL; https only; audited. */
export const setCustomerUrl = (db: Kysely<Database>, url: string | null, operator?: string) =>
  writeOutsideUrl(db, CUSTOMER, url, operator);

/**
 * A C2C order's chat as an operator deciding its appeal reads it (read-only; both sides are "user" by their names).
 * `chatNotFound` when the order has no chat.
 */
export async function orderChatForOps(
  db: Kysely<Database>,
  operator: SupportOperator,
  orderId: number,
  page: { after_seq?: number | undefined; before_seq?: number | undefined; limit?: number | undefined },
): Promise<ChatMessagesPage> {
  const row = await withChat(db)
    .selectFrom('chat_conversations')
    .selectAll()
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  if (row?.kind !== 'order') throw new BusinessError('chatNotFound', { field: 'id' });
  return messagesPage(db, row, operatorViewer(operator), page);
}

/**
 * The upload a console image query names (`conversation`, `id`) when it is an image of a conversation of `kind`
 * (support photos to support; an order chat's photos to the reviewer of its appeal); null for anything else.
 */
export async function conversationImage(
  db: Kysely<Database>,
  kind: 'support' | 'order',
  query: Record<string, unknown>,
): Promise<{ conversationId: number; uploadId: number; orderId: number | null } | null> {
  const number = (v: unknown) => (typeof v === 'string' && /^[1-9]\d{0,11}$/.test(v) ? Number(v) : null);
  const conversationId = number(query.conversation);
  const uploadId = number(query.id);
  if (conversationId === null || uploadId === null) return null;
  // c2c's order table is typed in c2c, which imports chat: the one column pair this check reads is named here.
  const row = await withChat(db)
    .withTables<{ c2c_orders: { conversation_id: number; status: number } }>()
    .selectFrom('chat_messages as m')
    .innerJoin('chat_conversations as c', 'c.id', 'm.conversation_id')
    .select(['m.image_id', 'c.order_id'])
    .where('m.conversation_id', '=', conversationId)
    .where('m.image_id', '=', uploadId)
    .where('c.kind', '=', kind)
    .$if(kind === 'order', (q) => q.innerJoin('c2c_orders as o', 'o.conversation_id', 'c.id').where('o.status', '=', 4))
    .executeTakeFirst();
  // The order is named for the audit of who saw the photo (an order chat's subject is its order).
  return row?.image_id ? { conversationId, uploadId: row.image_id, orderId: row.order_id } : null;
}
