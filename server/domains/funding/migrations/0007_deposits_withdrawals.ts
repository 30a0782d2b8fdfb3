import { type Kysely, sql } from 'kysely';
import type { DialectKind } from '../../../platform/db/connect';
import { type DomainMigration, withId } from '../../../platform/db/migration-kit';

/** Funding settings, deposits and withdrawals. Shipped: never edit, add a new migration. */
export const migration0007: DomainMigration = {
  name: '0007_deposits_withdrawals',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    const id = withId(kind);
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
      .addCheckConstraint('deposits_state', sql`state in ('pending', 'approving', 'rejecting', 'passed', 'rejected')`)
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
};
