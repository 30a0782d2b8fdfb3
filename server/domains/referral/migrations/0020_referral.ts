import { type Kysely, sql } from 'kysely';
import type { DialectKind } from '../../../platform/db/connect';
import { type DomainMigration, withBigId } from '../../../platform/db/migration-kit';

/** Referral partners and the rebates paid on invitees' trading fees. Shipped: never edit, add a new migration. */
export const migration0020: DomainMigration = {
  name: '0020_referral',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    // One row per user an operator ever made a partner; a revoked partner keeps its row (and code) for the record.
    // Ratios are basis points (protocol/rules/referral.ts); the bonus passed on never exceeds the ratio.
    await db.schema
      .createTable('referral_partners')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id'))
      .addColumn('auth_code', 'varchar(16)', (c) => c.notNull().unique())
      .addColumn('status', 'varchar(8)', (c) => c.notNull())
      .addColumn('ratio_bp', 'integer', (c) => c.notNull())
      .addColumn('bonus_bp', 'integer', (c) => c.notNull())
      .addColumn('granted_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint('referral_partners_status', sql`status in ('active', 'revoked')`)
      .addCheckConstraint('referral_partners_ratio', sql`ratio_bp >= 0 and ratio_bp <= 10000`)
      .addCheckConstraint('referral_partners_bonus', sql`bonus_bp >= 0 and bonus_bp <= ratio_bp`)
      .execute();

    // One row per trading-fee posting of a referred user: the unique fee posting makes each fee rebated once, whichever
    // process or retry gets there. A zero rebate is a row without entries. Amounts are minor units of `currency`.
    await db.schema
      .createTable('referral_rebates')
      .$call(withBigId(kind))
      .addColumn('fee_posting_id', 'bigint', (c) => c.notNull().unique().references('ledger_postings.id'))
      .addColumn('source', 'varchar(8)', (c) => c.notNull())
      .addColumn('payer_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('referrer_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('currency', 'varchar(12)', (c) => c.notNull())
      .addColumn('fee', 'bigint', (c) => c.notNull())
      .addColumn('ratio_bp', 'integer', (c) => c.notNull())
      .addColumn('bonus_bp', 'integer', (c) => c.notNull())
      .addColumn('referrer_amount', 'bigint', (c) => c.notNull())
      .addColumn('invitee_amount', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint('referral_rebates_source', sql`source in ('spot', 'lever')`)
      .addCheckConstraint(
        'referral_rebates_amounts',
        sql`referrer_amount >= 0 and invitee_amount >= 0 and referrer_amount + invitee_amount <= fee`,
      )
      .execute();
    await db.schema
      .createIndex('referral_rebates_referrer')
      .on('referral_rebates')
      .columns(['referrer_id', 'id'])
      .execute();
    await db.schema.createIndex('referral_rebates_payer').on('referral_rebates').columns(['payer_id', 'id']).execute();

    // Rebates start with the fees posted from now on: fees paid before were paid under terms that promised none.
    await sql`insert into platform_settings (key, value)
      select 'referral.rebates_after_posting', cast(coalesce(max(id), 0) as varchar(20)) from ledger_postings`.execute(
      db,
    );
  },
};
