import type { Kysely } from 'kysely';
import type { DomainMigration } from '../../../platform/db/migration-kit';

/**
 * The security centre's list of signed-in devices (issue 28). Shipped: never edit, add a new migration.
 *   - user_agent: the browser's User-Agent at sign-in (cut to 512 characters), from which the list names the device;
 *   - last_used_at: when a request last carried the session's token (written at most once a minute);
 *   - ended_from_list: set when the user ended it from the device list, so its device no longer counts as known
 *     (a sign-in from it again is announced as from a new device).
 * All nullable: sessions started before read as an unknown device last used at its sign-in.
 */
export const migration0030: DomainMigration = {
  name: '0030_session_devices',
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('sessions').addColumn('user_agent', 'varchar(512)').execute();
    await db.schema.alterTable('sessions').addColumn('last_used_at', 'bigint').execute();
    await db.schema.alterTable('sessions').addColumn('ended_from_list', 'bigint').execute();
  },
};
