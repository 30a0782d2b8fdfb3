import { type Kysely, sql } from 'kysely';
import type { DialectKind } from '../../../platform/db/connect';
import { type DomainMigration, withBigId, withId } from '../../../platform/db/migration-kit';

/** Uploaded images, identity verifications, the operator audit log and user events. Shipped: never edit, add a new migration. */
export const migration0004: DomainMigration = {
  name: '0004_uploads_identity',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    const id = withId(kind);
    const bigId = withBigId(kind);
    // Images users uploaded (ID photos, later deposit proofs). The bytes live under DATA_DIR/uploads in a file
    // whose name the server chose; `attached_to` names what uses the image, which makes it undeletable.
    await db.schema
      .createTable('uploads')
      .$call(id)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('file_name', 'varchar(80)', (c) => c.notNull().unique())
      .addColumn('mime', 'varchar(32)', (c) => c.notNull())
      .addColumn('size', 'integer', (c) => c.notNull())
      .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('deleted_at', 'bigint')
      .addColumn('attached_to', 'varchar(64)')
      .execute();
    await db.schema.createIndex('uploads_user').on('uploads').columns(['user_id', 'id']).execute();

    await db.schema
      .createTable('identity_verifications')
      .$call(id)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('level', 'varchar(8)', (c) => c.notNull())
      .addColumn('state', 'varchar(8)', (c) => c.notNull())
      .addColumn('country', 'varchar(2)')
      .addColumn('name', 'varchar(100)')
      .addColumn('id_number', 'varchar(40)')
      .addColumn('address', 'varchar(200)')
      .addColumn('front_upload_id', 'integer', (c) => c.references('uploads.id'))
      .addColumn('back_upload_id', 'integer', (c) => c.references('uploads.id'))
      .addColumn('hold_upload_id', 'integer', (c) => c.references('uploads.id'))
      .addColumn('reason', 'varchar(500)')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('reviewed_at', 'bigint')
      .addCheckConstraint('identity_verifications_level', sql`level in ('basic', 'advanced')`)
      .addCheckConstraint('identity_verifications_state', sql`state in ('pending', 'verified', 'rejected')`)
      .execute();
    // One live (pending or verified) submission per user and level; rejected ones stay as history.
    await db.schema
      .createIndex('identity_verifications_active')
      .on('identity_verifications')
      .columns(['user_id', 'level'])
      .unique()
      .where(sql.ref('state'), '<>', 'rejected')
      .execute();
    await db.schema
      .createIndex('identity_verifications_state')
      .on('identity_verifications')
      .columns(['state', 'id'])
      .execute();

    // What operators did, append-only (the database refuses UPDATE and DELETE, as for the ledger).
    await db.schema
      .createTable('ops_audit')
      .$call(bigId)
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('operator', 'varchar(64)', (c) => c.notNull())
      .addColumn('action', 'varchar(48)', (c) => c.notNull())
      .addColumn('subject_type', 'varchar(32)', (c) => c.notNull())
      .addColumn('subject_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('detail', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('ops_audit_subject').on('ops_audit').columns(['subject_type', 'subject_id']).execute();
    if (kind === 'sqlite') {
      for (const event of ['update', 'delete']) {
        await sql
          .raw(
            `create trigger ops_audit_no_${event} before ${event} on ops_audit ` +
              `begin select raise(abort, 'ops_audit is append-only'); end`,
          )
          .execute(db);
      }
    } else {
      await sql
        .raw(
          `create function ops_audit_append_only() returns trigger language plpgsql as $$ ` +
            `begin raise exception 'ops_audit is append-only'; end $$`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger ops_audit_append_only before update or delete on ops_audit ` +
            `for each row execute function ops_audit_append_only()`,
        )
        .execute(db);
    }

    // Private events for one user (verification reviewed, ...), written in the transaction of the change and
    // relayed to the user's socket room by every server process (server/realtime/user-events.ts).
    await db.schema
      .createTable('user_events')
      .$call(bigId)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('kind', 'varchar(32)', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('user_events_user').on('user_events').columns(['user_id', 'id']).execute();
  },
};
