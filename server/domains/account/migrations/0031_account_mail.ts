import type { Kysely } from 'kysely';
import type { DialectKind } from '../../../platform/db/connect';
import { type DomainMigration, withId } from '../../../platform/db/migration-kit';

/**
 * Issue 28's e-mails. Shipped: never edit, add a new migration.
 *   - users.anti_phishing: a phrase the user chose that every e-mail from the platform carries, so a forged one shows;
 *   - mail_outbox: simulated delivery of the platform's e-mails when no SMTP server is configured (as code_outbox is
 *     for codes): each message as the user would read it, for the e2e tests and `ops`.
 */
export const migration0031: DomainMigration = {
  name: '0031_account_mail',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    const id = withId(kind);
    await db.schema.alterTable('users').addColumn('anti_phishing', 'varchar(64)').execute();
    await db.schema
      .createTable('mail_outbox')
      .$call(id)
      .addColumn('address', 'varchar(254)', (c) => c.notNull())
      .addColumn('subject', 'varchar(200)', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('mail_outbox_address').on('mail_outbox').column('address').execute();
  },
};
