import { type CreateTableBuilder, type Kysely, type Migration, Migrator, sql } from 'kysely';
import type { DatabaseHandle, DialectKind } from './connect';

/** An auto-increment integer primary key named `id`, spelled the way each dialect wants it. */
const withId =
  (kind: DialectKind) =>
  <T extends string>(table: CreateTableBuilder<T>): CreateTableBuilder<T, 'id'> =>
    kind === 'postgres'
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

/** Same, 64-bit: for tables that grow with every balance change (PostgreSQL's serial stops at 2^31). */
const withBigId =
  (kind: DialectKind) =>
  <T extends string>(table: CreateTableBuilder<T>): CreateTableBuilder<T, 'id'> =>
    kind === 'postgres'
      ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

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

/**
 * Migrations live in code (not files) so they run the same under tsx, vitest and any bundling.
 * Names sort in order; never edit a migration that has shipped, add a new one.
 */
export function migrations(kind: DialectKind): Record<string, Migration> {
  const id = withId(kind);
  const bigId = withBigId(kind);
  return {
    '0001_accounts': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('users')
          .$call(id)
          .addColumn('username', 'varchar(32)', (c) => c.notNull().unique())
          .addColumn('email', 'varchar(254)', (c) => c.unique())
          .addColumn('area_code', 'varchar(8)')
          .addColumn('mobile', 'varchar(32)')
          .addColumn('phone', 'varchar(40)', (c) => c.unique())
          .addColumn('password_hash', 'text', (c) => c.notNull())
          .addColumn('fund_password_hash', 'text')
          .addColumn('invite_code', 'varchar(32)', (c) => c.notNull().unique())
          .addColumn('referrer_id', 'integer', (c) => c.references('users.id'))
          .addColumn('lang', 'varchar(8)', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('last_login_at', 'bigint')
          .execute();
        await db.schema.createIndex('users_mobile').on('users').column('mobile').execute();
        await db.schema.createIndex('users_referrer').on('users').column('referrer_id').execute();

        await db.schema
          .createTable('sessions')
          .$call(id)
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
          .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .addColumn('revoked_at', 'bigint')
          .execute();
        await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

        await db.schema
          .createTable('verification_codes')
          .$call(id)
          .addColumn('channel', 'varchar(8)', (c) => c.notNull())
          .addColumn('address', 'varchar(254)', (c) => c.notNull())
          .addColumn('scene', 'varchar(16)', (c) => c.notNull())
          .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('consumed_at', 'bigint')
          .execute();
        await db.schema
          .createIndex('verification_codes_target')
          .on('verification_codes')
          .columns(['address', 'scene'])
          .execute();

        await db.schema
          .createTable('code_outbox')
          .$call(id)
          .addColumn('channel', 'varchar(8)', (c) => c.notNull())
          .addColumn('address', 'varchar(254)', (c) => c.notNull())
          .addColumn('scene', 'varchar(16)', (c) => c.notNull())
          .addColumn('code', 'varchar(16)', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('code_outbox_address').on('code_outbox').column('address').execute();

        await db.schema
          .createTable('rate_limit_hits')
          .$call(id)
          .addColumn('bucket', 'varchar(300)', (c) => c.notNull())
          .addColumn('at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('rate_limit_hits_bucket').on('rate_limit_hits').columns(['bucket', 'at']).execute();

        await db.schema
          .createTable('platform_settings')
          .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('value', 'text', (c) => c.notNull())
          .execute();
      },
    },
    '0002_market': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('price_ticks')
          .$call(id)
          .addColumn('instrument_id', 'integer', (c) => c.notNull())
          .addColumn('symbol', 'varchar(16)', (c) => c.notNull())
          .addColumn('ts', 'bigint', (c) => c.notNull())
          .addColumn('price', 'varchar(40)', (c) => c.notNull())
          .addColumn('seq', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('price_ticks_symbol_ts').on('price_ticks').columns(['symbol', 'ts']).execute();
        await db.schema.createIndex('price_ticks_ts').on('price_ticks').column('ts').execute();

        await db.schema
          .createTable('favourites')
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
          .addColumn('symbol', 'varchar(16)', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('favourites_pk', ['user_id', 'symbol'])
          .execute();
      },
    },
    '0003_ledger': {
      async up(db: Kysely<unknown>) {
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
        await db.schema
          .createIndex('ledger_holds_account')
          .on('ledger_holds')
          .columns(['account_id', 'state'])
          .execute();

        await ledgerGuards(db, kind);
      },
    },
    '0004_uploads_identity': {
      async up(db: Kysely<unknown>) {
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
        await db.schema
          .createIndex('ops_audit_subject')
          .on('ops_audit')
          .columns(['subject_type', 'subject_id'])
          .execute();
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
    },
    '0005_cards_addresses': {
      async up(db: Kysely<unknown>) {
        // Where a user's withdrawals may go (SPEC 3 "Withdraw address"). Deleting keeps the row (deleted_at) so a
        // past withdrawal can still show where it went; the address is stored in its canonical spelling.
        await db.schema
          .createTable('withdraw_addresses')
          .$call(id)
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
          .addColumn('coin', 'varchar(8)', (c) => c.notNull())
          .addColumn('chain', 'varchar(8)', (c) => c.notNull())
          .addColumn('address', 'varchar(100)', (c) => c.notNull())
          .addColumn('label', 'varchar(30)')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('deleted_at', 'bigint')
          .execute();
        // One live row per user, coin, chain and address: a second save of the same address is refused.
        await db.schema
          .createIndex('withdraw_addresses_live')
          .on('withdraw_addresses')
          .columns(['user_id', 'coin', 'chain', 'address'])
          .unique()
          .where(sql.ref('deleted_at'), 'is', null)
          .execute();
        await db.schema
          .createIndex('withdraw_addresses_user')
          .on('withdraw_addresses')
          .columns(['user_id', 'id'])
          .execute();

        // Bound bank cards (SPEC 3 "Bank card"), for bank withdrawals. Same soft delete.
        await db.schema
          .createTable('bank_cards')
          .$call(id)
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
          .addColumn('name', 'varchar(100)', (c) => c.notNull())
          .addColumn('bank_name', 'varchar(100)', (c) => c.notNull())
          .addColumn('branch_name', 'varchar(100)', (c) => c.notNull())
          .addColumn('branch_number', 'varchar(20)', (c) => c.notNull())
          .addColumn('card_number', 'varchar(19)', (c) => c.notNull())
          .addColumn('bank_address', 'varchar(200)', (c) => c.notNull())
          .addColumn('swift_code', 'varchar(11)', (c) => c.notNull())
          .addColumn('cardholder_name', 'varchar(100)', (c) => c.notNull())
          .addColumn('bank_account', 'varchar(40)', (c) => c.notNull())
          .addColumn('iban', 'varchar(34)', (c) => c.notNull())
          .addColumn('payee_address', 'varchar(200)', (c) => c.notNull())
          .addColumn('postal_code', 'varchar(12)', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint')
          .addColumn('deleted_at', 'bigint')
          .execute();
        await db.schema
          .createIndex('bank_cards_live')
          .on('bank_cards')
          .columns(['user_id', 'card_number'])
          .unique()
          .where(sql.ref('deleted_at'), 'is', null)
          .execute();
        await db.schema.createIndex('bank_cards_user').on('bank_cards').columns(['user_id', 'id']).execute();
      },
    },
    '0007_deposits_withdrawals': {
      async up(db: Kysely<unknown>) {
        // Per coin: the minimum deposit (a whole amount, SPEC 5), the minimum withdrawal and its fee, in the ledger's
        // minor units (USDT/USDC 6 decimals, BTC/ETH 8). Operators change them with `ops fees set`.
        await db.schema
          .createTable('funding_coins')
          .addColumn('coin', 'varchar(8)', (c) => c.primaryKey())
          .addColumn('min_deposit', 'bigint', (c) => c.notNull())
          .addColumn('min_withdraw', 'bigint', (c) => c.notNull())
          .addColumn('withdraw_fee', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addCheckConstraint('funding_coins_amounts', sql`min_deposit > 0 and min_withdraw > 0 and withdraw_fee >= 0`)
          .execute();
        await db
          .insertInto('funding_coins' as never)
          .values([
            { coin: 'USDT', min_deposit: 10_000_000, min_withdraw: 10_000_000, withdraw_fee: 1_000_000, updated_at: 0 },
            { coin: 'USDC', min_deposit: 10_000_000, min_withdraw: 10_000_000, withdraw_fee: 1_000_000, updated_at: 0 },
            { coin: 'BTC', min_deposit: 100_000_000, min_withdraw: 100_000, withdraw_fee: 50_000, updated_at: 0 },
            { coin: 'ETH', min_deposit: 100_000_000, min_withdraw: 1_000_000, withdraw_fee: 500_000, updated_at: 0 },
          ] as never)
          .execute();

        // The platform's receiving address per coin and chain (`ops deposit-address set`); none until configured.
        await db.schema
          .createTable('deposit_addresses')
          .addColumn('coin', 'varchar(8)', (c) => c.notNull())
          .addColumn('chain', 'varchar(8)', (c) => c.notNull())
          .addColumn('address', 'varchar(100)', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('deposit_addresses_pk', ['coin', 'chain'])
          .execute();

        // A deposit waiting for (or after) review. Nothing reaches the ledger before an operator approves it;
        // `approving` is the short step between claiming the row and the ledger credit (a crash there is resumed
        // by approving again, which the ledger's request id makes apply once).
        await db.schema
          .createTable('deposits')
          .$call(id)
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
          .addColumn('method', 'varchar(8)', (c) => c.notNull())
          .addColumn('coin', 'varchar(8)', (c) => c.notNull())
          .addColumn('chain', 'varchar(8)')
          .addColumn('address', 'varchar(300)')
          .addColumn('hash', 'varchar(66)')
          .addColumn('bank_card_id', 'integer', (c) => c.references('bank_cards.id'))
          .addColumn('amount', 'bigint', (c) => c.notNull())
          .addColumn('proof_upload_id', 'integer', (c) => c.notNull().references('uploads.id'))
          .addColumn('request_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('request_digest', 'varchar(64)', (c) => c.notNull())
          .addColumn('state', 'varchar(10)', (c) => c.notNull())
          .addColumn('reason', 'varchar(500)')
          .addColumn('entry_id', 'bigint', (c) => c.references('ledger_entries.id'))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('reviewed_at', 'bigint')
          .addCheckConstraint('deposits_amount', sql`amount > 0`)
          .addCheckConstraint(
            'deposits_state',
            sql`state in ('pending', 'approving', 'rejecting', 'passed', 'rejected')`,
          )
          .addCheckConstraint('deposits_method', sql`method in ('crypto', 'bank')`)
          .execute();
        await db.schema
          .createIndex('deposits_request')
          .on('deposits')
          .columns(['user_id', 'request_id'])
          .unique()
          .execute();
        // A transaction hash pays one deposit: refused while a deposit with it is under review or passed.
        await db.schema
          .createIndex('deposits_hash')
          .on('deposits')
          .columns(['chain', 'hash'])
          .unique()
          .where(sql.ref('state'), '<>', 'rejected')
          .execute();
        await db.schema.createIndex('deposits_user').on('deposits').columns(['user_id', 'id']).execute();
        await db.schema.createIndex('deposits_state').on('deposits').columns(['state', 'id']).execute();

        // A withdrawal request: amount + fee are frozen by `hold_id` until approval posts the hold (amount to
        // withdrawals clearing, fee to fees) or a rejection voids it.
        await db.schema
          .createTable('withdrawals')
          .$call(id)
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
          .addColumn('coin', 'varchar(8)', (c) => c.notNull())
          .addColumn('chain', 'varchar(8)', (c) => c.notNull())
          .addColumn('address_id', 'integer', (c) => c.notNull().references('withdraw_addresses.id'))
          .addColumn('address', 'varchar(100)', (c) => c.notNull())
          .addColumn('amount', 'bigint', (c) => c.notNull())
          .addColumn('fee', 'bigint', (c) => c.notNull())
          .addColumn('remark', 'varchar(100)')
          .addColumn('request_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('request_digest', 'varchar(64)', (c) => c.notNull())
          .addColumn('hold_id', 'integer', (c) => c.notNull().references('ledger_holds.id'))
          .addColumn('state', 'varchar(10)', (c) => c.notNull())
          .addColumn('reason', 'varchar(500)')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('reviewed_at', 'bigint')
          .addCheckConstraint('withdrawals_amounts', sql`amount > 0 and fee >= 0`)
          .addCheckConstraint(
            'withdrawals_state',
            sql`state in ('pending', 'approving', 'rejecting', 'passed', 'rejected')`,
          )
          .execute();
        await db.schema
          .createIndex('withdrawals_request')
          .on('withdrawals')
          .columns(['user_id', 'request_id'])
          .unique()
          .execute();
        await db.schema.createIndex('withdrawals_hold').on('withdrawals').column('hold_id').unique().execute();
        await db.schema.createIndex('withdrawals_user').on('withdrawals').columns(['user_id', 'created_at']).execute();
        await db.schema.createIndex('withdrawals_state').on('withdrawals').columns(['state', 'id']).execute();
      },
    },
  };
}

/** Brings the schema up to date; throws (with the failing migration's error) when one fails. */
export async function migrateToLatest({ db, kind }: DatabaseHandle): Promise<void> {
  // PostgreSQL: name the schema of Kysely's own bookkeeping tables. Without it the migrator looks for them in every
  // schema, so a database being migrated in another schema at the same moment (parallel test files, each in its
  // own schema) makes it skip creating them in this one and then fail. In production this is `public`, as before.
  const schema =
    kind === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations(kind) },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed`, { cause: error });
  }
}
