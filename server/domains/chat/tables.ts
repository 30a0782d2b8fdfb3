import type { Generated, Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';

/** A chat conversation (server/domains/chat): a user with support, or a C2C order's buyer and merchant. */
export interface ChatConversationsTable {
  id: Generated<number>;
  kind: 'support' | 'order';
  topic: string | null;
  order_id: number | null;
  state: 'open' | 'closed';
  last_seq: Generated<number>;
  support_read_seq: Generated<number>;
  created_at: number;
  updated_at: number;
  closed_at: number | null;
}

export interface ChatMembersTable {
  conversation_id: number;
  user_id: number;
  role: 'user' | 'buyer' | 'merchant';
  display_name: string;
  read_seq: Generated<number>;
}

export interface ChatMessagesTable {
  id: Generated<number>;
  conversation_id: number;
  seq: number;
  /** `u:<user id>`, `o:<operator id>` or `system`. */
  author: string;
  author_name: string;
  client_id: string | null;
  kind: 'text' | 'image' | 'event';
  text: string | null;
  image_id: number | null;
  created_at: number;
}

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type ChatTables = {
  chat_conversations: ChatConversationsTable;
  chat_members: ChatMembersTable;
  chat_messages: ChatMessagesTable;
};

export type ChatDb = Kysely<Database & ChatTables>;

/** The app's database (or a transaction) seen with this domain's tables, typed here beside the code that owns them. */
export const withChat = (db: Kysely<Database>): ChatDb => db.withTables<ChatTables>();
