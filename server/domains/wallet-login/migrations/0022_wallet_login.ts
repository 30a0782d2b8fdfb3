import { type Kysely, sql } from 'kysely';
import type { DialectKind } from '../../../platform/db/connect';
import { type DomainMigration, withId } from '../../../platform/db/migration-kit';

/** Wallet login: single-use sign-in nonces and the wallets linked to accounts. Shipped: never edit, add a new migration. */
export const migration0022: DomainMigration = {
  name: '0022_wallet_login',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    // One row per message handed out: the exact text, for whom and which site, until when. `used_at` is set by the
    // one login or link that consumes it (a conditional update), so a replayed signature finds it taken.
    await db.schema
      .createTable('wallet_nonces')
      .$call(withId(kind))
      .addColumn('nonce', 'varchar(32)', (c) => c.notNull().unique())
      .addColumn('chain', 'varchar(8)', (c) => c.notNull())
      .addColumn('address', 'varchar(64)', (c) => c.notNull())
      .addColumn('purpose', 'varchar(8)', (c) => c.notNull())
      .addColumn('domain', 'varchar(255)', (c) => c.notNull())
      .addColumn('uri', 'varchar(300)', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      // A linking message is asked for by a logged-in user and links only to that user's account.
      .addColumn('user_id', 'integer', (c) => c.references('users.id'))
      .addColumn('issued_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addCheckConstraint('wallet_nonces_chain', sql`chain in ('erc', 'trc')`)
      .addCheckConstraint('wallet_nonces_purpose', sql`purpose in ('login', 'bind')`)
      .execute();
    await db.schema.createIndex('wallet_nonces_expires').on('wallet_nonces').column('expires_at').execute();

    // A wallet (chain + canonical address) belongs to at most one account.
    await db.schema
      .createTable('wallet_links')
      .$call(withId(kind))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('chain', 'varchar(8)', (c) => c.notNull())
      .addColumn('address', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('wallet_links_wallet', ['chain', 'address'])
      .addCheckConstraint('wallet_links_chain', sql`chain in ('erc', 'trc')`)
      .execute();
    await db.schema.createIndex('wallet_links_user').on('wallet_links').column('user_id').execute();
  },
};
