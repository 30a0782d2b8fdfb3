import { type Kysely, sql } from 'kysely';
import type { DialectKind } from '../../../platform/db/connect';
import { type DomainMigration, withId } from '../../../platform/db/migration-kit';

/** Listing polls, their options and the votes cast. Shipped: never edit, add a new migration. */
export const migration0023: DomainMigration = {
  name: '0023_polls',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    // A poll as an operator opened it (audited). Times are the server's milliseconds; `closed_at` is set only when an
    // operator closed it before `closes_at`.
    await db.schema
      .createTable('polls')
      .$call(withId(kind))
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('opens_at', 'bigint', (c) => c.notNull())
      .addColumn('closes_at', 'bigint', (c) => c.notNull())
      .addColumn('closed_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint('polls_kind', sql`kind in ('next_listing')`)
      .addCheckConstraint('polls_window', sql`closes_at > opens_at`)
      .execute();
    await db.schema.createIndex('polls_closes_at').on('polls').column('closes_at').execute();
    // The coins a poll offers, in the order the operator gave them; a coin once per poll.
    await db.schema
      .createTable('poll_options')
      .$call(withId(kind))
      .addColumn('poll_id', 'integer', (c) => c.notNull().references('polls.id'))
      .addColumn('symbol', 'varchar(10)', (c) => c.notNull())
      .addColumn('name', 'varchar(40)', (c) => c.notNull())
      .addColumn('sort_order', 'integer', (c) => c.notNull())
      .addUniqueConstraint('poll_options_symbol', ['poll_id', 'symbol'])
      .execute();
    // One vote per user and poll: the unique key is what makes a double submit (two tabs, a retry, two processes)
    // count once. `(option_id, poll_id)` must name an option of that poll (a composite reference would need a
    // unique key on poll_options(id, poll_id); the service checks it in the vote's transaction instead).
    await db.schema
      .createTable('poll_votes')
      .$call(withId(kind))
      .addColumn('poll_id', 'integer', (c) => c.notNull().references('polls.id'))
      .addColumn('option_id', 'integer', (c) => c.notNull().references('poll_options.id'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('voted_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('poll_votes_once', ['poll_id', 'user_id'])
      .execute();
    await db.schema.createIndex('poll_votes_tally').on('poll_votes').columns(['poll_id', 'option_id']).execute();
    // Votes are final: the database refuses to change or remove one, whatever the code does.
    if (kind === 'sqlite') {
      for (const event of ['update', 'delete']) {
        await sql
          .raw(
            `create trigger poll_votes_no_${event} before ${event} on poll_votes ` +
              `begin select raise(abort, 'poll_votes are final'); end`,
          )
          .execute(db);
      }
    } else {
      await sql
        .raw(
          `create function poll_votes_final() returns trigger language plpgsql as $$ ` +
            `begin raise exception 'poll_votes are final'; end $$`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger poll_votes_final before update or delete on poll_votes ` +
            `for each row execute function poll_votes_final()`,
        )
        .execute(db);
    }
  },
};
