import { type Kysely, sql } from 'kysely';
import type { DialectKind } from '../../../platform/db/connect';
import { type DomainMigration, withBigId } from '../../../platform/db/migration-kit';

/** Chat conversations, their members and messages. Shipped: never edit, add a new migration. */
export const migration0016: DomainMigration = {
  name: '0016_chat',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    const id = withBigId(kind);
    // `last_seq` is the number of the newest message: a send raises it by one under the row's lock, so messages of a
    // conversation are numbered 1, 2, 3, ... without gaps. `support_read_seq` is how far support has read (support
    // conversations: the operators are not members, any of them may answer).
    await db.schema
      .createTable('chat_conversations')
      .$call(id)
      .addColumn('kind', 'varchar(8)', (c) => c.notNull())
      .addColumn('topic', 'varchar(16)')
      .addColumn('order_id', 'bigint', (c) => c.unique())
      .addColumn('state', 'varchar(8)', (c) => c.notNull())
      .addColumn('last_seq', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('support_read_seq', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('closed_at', 'bigint')
      .addCheckConstraint('chat_conversations_kind', sql`kind in ('support', 'order')`)
      .addCheckConstraint('chat_conversations_state', sql`state in ('open', 'closed')`)
      .execute();
    await db.schema
      .createIndex('chat_conversations_inbox')
      .on('chat_conversations')
      .columns(['kind', 'state', 'updated_at'])
      .execute();
    await db.schema
      .createTable('chat_members')
      .addColumn('conversation_id', 'bigint', (c) => c.notNull().references('chat_conversations.id'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('role', 'varchar(8)', (c) => c.notNull())
      .addColumn('display_name', 'varchar(64)', (c) => c.notNull())
      .addColumn('read_seq', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('chat_members_pk', ['conversation_id', 'user_id'])
      .addCheckConstraint('chat_members_role', sql`role in ('user', 'buyer', 'merchant')`)
      .execute();
    await db.schema
      .createIndex('chat_members_user')
      .on('chat_members')
      .columns(['user_id', 'conversation_id'])
      .execute();
    // `author` is `u:<user id>`, `o:<operator id>` or `system`; a client id is unique per author and conversation, so a
    // retried send (even to another server process) finds its first message instead of posting again.
    await db.schema
      .createTable('chat_messages')
      .$call(id)
      .addColumn('conversation_id', 'bigint', (c) => c.notNull().references('chat_conversations.id'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('author', 'varchar(24)', (c) => c.notNull())
      .addColumn('author_name', 'varchar(64)', (c) => c.notNull())
      .addColumn('client_id', 'varchar(64)')
      .addColumn('kind', 'varchar(8)', (c) => c.notNull())
      .addColumn('text', 'text')
      .addColumn('image_id', 'integer', (c) => c.references('uploads.id'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint('chat_messages_kind', sql`kind in ('text', 'image', 'event')`)
      .execute();
    await db.schema
      .createIndex('chat_messages_seq')
      .unique()
      .on('chat_messages')
      .columns(['conversation_id', 'seq'])
      .execute();
    await db.schema
      .createIndex('chat_messages_client')
      .unique()
      .on('chat_messages')
      .columns(['conversation_id', 'author', 'client_id'])
      .execute();
  },
};
