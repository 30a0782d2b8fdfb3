import { type Kysely, sql } from 'kysely';
import type { DialectKind } from '../../platform/db/connect';
import { type DomainMigration, withBigId, withId } from '../../platform/db/migration-kit';

/**
 * Triggers that make ledger history append-only in the database itself, so no code path (nor a hand-typed
 * UPDATE) can edit a posting or re-resolve a hold: postings and entries refuse UPDATE and DELETE; a hold
 * refuses DELETE, and UPDATE once it has left `open`.
 */
async function ledgerGuards(db: Kysely<unknown>, kind: DialectKind): Promise<void> {
  if (kind === 'sqlite') {
    for (const table of ['ledger_entries', 'ledger_postings']) {
      for (const event of ['update', 'delete']) {
        await sql
          .raw(
            `create trigger ${table}_no_${event} before ${event} on ${table} ` +
              `begin select raise(abort, '${table} is append-only'); end`,
          )
          .execute(db);
      }
    }
    await sql
      .raw(
        `create trigger ledger_holds_no_delete before delete on ledger_holds ` +
          `begin select raise(abort, 'ledger_holds is append-only'); end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ledger_holds_resolve_once before update on ledger_holds when old.state <> 'open' ` +
          `begin select raise(abort, 'ledger hold already resolved'); end`,
      )
      .execute(db);
    return;
  }
  await sql
    .raw(
      `create function ledger_append_only() returns trigger language plpgsql as $$ ` +
        `begin raise exception '% is append-only', tg_table_name; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create function ledger_hold_resolve_once() returns trigger language plpgsql as $$ ` +
        `begin if tg_op = 'DELETE' then raise exception 'ledger_holds is append-only'; end if; ` +
        `if old.state <> 'open' then raise exception 'ledger hold already resolved'; end if; return new; end $$`,
    )
    .execute(db);
  for (const table of ['ledger_entries', 'ledger_postings']) {
    await sql
      .raw(
        `create trigger ${table}_append_only before update or delete on ${table} ` +
          `for each row execute function ledger_append_only()`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `create trigger ledger_holds_resolve_once before update or delete on ledger_holds ` +
        `for each row execute function ledger_hold_resolve_once()`,
    )
    .execute(db);
}

/** The double-entry ledger: accounts, entries, postings, holds, with append-only guards. Shipped: never edit, add a new migration. */
export const migration0003: DomainMigration = {
  name: '0003_ledger',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    const id = withId(kind);
    const bigId = withBigId(kind);
    // Amounts are bigint minor units; server/ledger keeps them within 2^53 so both dialects read exact numbers.
    await db.schema
      .createTable('ledger_accounts')
      .$call(id)
      .addColumn('user_id', 'integer', (c) => c.references('users.id'))
      .addColumn('book', 'varchar(12)', (c) => c.notNull())
      .addColumn('type', 'varchar(24)', (c) => c.notNull())
      .addColumn('currency', 'varchar(12)', (c) => c.notNull())
      .addColumn('balance', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('held', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint('ledger_accounts_held', sql`held >= 0`)
      // The last line of defence for "no available balance below zero": the service checks first, kindly.
      .addCheckConstraint('ledger_accounts_available', sql`user_id is null or balance >= held`)
      .execute();
    await db.schema
      .createIndex('ledger_accounts_user')
      .on('ledger_accounts')
      .columns(['user_id', 'book', 'type', 'currency'])
      .unique()
      .execute();
    // NULLs are distinct in a unique index, so platform accounts (user_id null) need their own.
    await db.schema
      .createIndex('ledger_accounts_platform')
      .on('ledger_accounts')
      .columns(['book', 'type', 'currency'])
      .unique()
      .where(sql.ref('user_id'), 'is', null)
      .execute();

    await db.schema
      .createTable('ledger_entries')
      .$call(bigId)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('kind', 'varchar(24)', (c) => c.notNull())
      .addColumn('request_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('request_digest', 'varchar(64)', (c) => c.notNull())
      .addColumn('memo', 'varchar(200)')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('ledger_entries_request')
      .on('ledger_entries')
      .columns(['user_id', 'request_id'])
      .unique()
      .execute();

    await db.schema
      .createTable('ledger_postings')
      .$call(bigId)
      .addColumn('entry_id', 'bigint', (c) => c.notNull().references('ledger_entries.id'))
      .addColumn('account_id', 'integer', (c) => c.notNull().references('ledger_accounts.id'))
      .addColumn('amount', 'bigint', (c) => c.notNull())
      .addCheckConstraint('ledger_postings_amount', sql`amount <> 0`)
      .execute();
    await db.schema
      .createIndex('ledger_postings_account')
      .on('ledger_postings')
      .columns(['account_id', 'id'])
      .execute();
    await db.schema.createIndex('ledger_postings_entry').on('ledger_postings').column('entry_id').execute();

    await db.schema
      .createTable('ledger_holds')
      .$call(id)
      .addColumn('account_id', 'integer', (c) => c.notNull().references('ledger_accounts.id'))
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('ref', 'varchar(64)')
      .addColumn('amount', 'bigint', (c) => c.notNull())
      .addColumn('state', 'varchar(8)', (c) => c.notNull())
      .addColumn('entry_id', 'bigint', (c) => c.notNull().references('ledger_entries.id'))
      .addColumn('resolved_entry_id', 'bigint', (c) => c.references('ledger_entries.id'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('resolved_at', 'bigint')
      .addCheckConstraint('ledger_holds_amount', sql`amount > 0`)
      .addCheckConstraint('ledger_holds_state', sql`state in ('open', 'posted', 'voided')`)
      .execute();
    await db.schema.createIndex('ledger_holds_account').on('ledger_holds').columns(['account_id', 'state']).execute();

    await ledgerGuards(db, kind);
  },
};
