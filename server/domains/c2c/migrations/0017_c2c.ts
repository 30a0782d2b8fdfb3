import { type Kysely, sql } from 'kysely';
import type { DialectKind } from '../../../platform/db/connect';
import { type DomainMigration, withBigId } from '../../../platform/db/migration-kit';

/** C2C merchants, their ads and the orders buyers place on them. Shipped: never edit, add a new migration. */
export const migration0017: DomainMigration = {
  name: '0017_c2c',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    const id = withBigId(kind);
    // A user the operator marked as a merchant (audited), with the public nickname buyers see. Removal keeps the row
    // (active 0): the orders of a former merchant still name them.
    await db.schema
      .createTable('c2c_merchants')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id'))
      .addColumn('nickname', 'varchar(32)', (c) => c.notNull())
      .addColumn('active', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint('c2c_merchants_active', sql`active in (0, 1)`)
      .execute();
    await db.schema
      .createIndex('c2c_merchants_nickname')
      .unique()
      .on('c2c_merchants')
      .expression(sql`lower(nickname)`)
      .execute();
    // An ad: price in units of 10^-6 fiat, amounts in the coin's minor units, limits in cents. `taken` is the sum of
    // the quantities of its orders in status 1 to 4 and `sold` of those completed; both move only in the transaction
    // of the order's change, so available = amount − taken can never go negative (the check is the last guard).
    // Payment details are sealed under the data key (bank-cards vault); the pay types are plain for the lists.
    await db.schema
      .createTable('c2c_ads')
      .$call(id)
      .addColumn('merchant_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('coin', 'varchar(12)', (c) => c.notNull())
      .addColumn('fiat', 'varchar(3)', (c) => c.notNull())
      .addColumn('price', 'bigint', (c) => c.notNull())
      .addColumn('amount', 'bigint', (c) => c.notNull())
      .addColumn('taken', 'bigint', (c) => c.notNull())
      .addColumn('sold', 'bigint', (c) => c.notNull())
      .addColumn('min_fiat', 'bigint', (c) => c.notNull())
      .addColumn('max_fiat', 'bigint', (c) => c.notNull())
      .addColumn('pay_types', 'varchar(64)', (c) => c.notNull())
      .addColumn('pay_methods_enc', 'text', (c) => c.notNull())
      .addColumn('note', 'varchar(500)', (c) => c.notNull())
      .addColumn('state', 'varchar(8)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('closed_at', 'bigint')
      .addCheckConstraint('c2c_ads_state', sql`state in ('open', 'closed')`)
      .addCheckConstraint(
        'c2c_ads_amounts',
        sql`price > 0 and amount > 0 and taken >= 0 and taken <= amount and sold >= 0 and sold <= taken and min_fiat > 0 and min_fiat <= max_fiat`,
      )
      .execute();
    await db.schema.createIndex('c2c_ads_market').on('c2c_ads').columns(['state', 'coin', 'fiat', 'price']).execute();
    await db.schema.createIndex('c2c_ads_merchant').on('c2c_ads').columns(['merchant_id', 'id']).execute();
    // An order keeps the ad's terms it was placed under, and the chosen payment method's details (sealed). Its
    // quantity is held in escrow from the merchant's coin account (hold_id) from the moment it exists. `status` moves
    // only by conditional updates (`where status = <expected>`) in the transaction of its money, so each change
    // happens once.
    await db.schema
      .createTable('c2c_orders')
      .$call(id)
      .addColumn('ad_id', 'bigint', (c) => c.notNull().references('c2c_ads.id'))
      .addColumn('merchant_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('buyer_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('coin', 'varchar(12)', (c) => c.notNull())
      .addColumn('fiat', 'varchar(3)', (c) => c.notNull())
      .addColumn('price', 'bigint', (c) => c.notNull())
      .addColumn('quantity', 'bigint', (c) => c.notNull())
      .addColumn('amount', 'bigint', (c) => c.notNull())
      .addColumn('min_fiat', 'bigint', (c) => c.notNull())
      .addColumn('max_fiat', 'bigint', (c) => c.notNull())
      .addColumn('pay_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('pay_info_enc', 'text', (c) => c.notNull())
      .addColumn('merchant_nickname', 'varchar(32)', (c) => c.notNull())
      .addColumn('buyer_nickname', 'varchar(64)', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('hold_id', 'bigint', (c) => c.references('ledger_holds.id'))
      .addColumn('conversation_id', 'bigint')
      .addColumn('request_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('request_digest', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('pay_until', 'bigint', (c) => c.notNull())
      .addColumn('paid_at', 'bigint')
      .addColumn('completed_at', 'bigint')
      .addColumn('cancelled_at', 'bigint')
      .addColumn('cancel_reason', 'varchar(8)')
      .addColumn('appeal_by', 'varchar(8)')
      .addColumn('appeal_reason', 'varchar(500)')
      .addColumn('appeal_opened_at', 'bigint')
      .addColumn('appeal_decision', 'varchar(8)')
      .addColumn('appeal_decision_reason', 'varchar(500)')
      .addColumn('appeal_decided_at', 'bigint')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint('c2c_orders_status', sql`status in (1, 2, 3, 4, 5)`)
      .addCheckConstraint('c2c_orders_amounts', sql`quantity > 0 and amount > 0 and buyer_id <> merchant_id`)
      .addCheckConstraint(
        'c2c_orders_cancel',
        sql`(status = 5) = (cancel_reason is not null) and (cancel_reason is null or cancel_reason in ('buyer', 'expired', 'appeal'))`,
      )
      .addCheckConstraint('c2c_orders_appeal', sql`appeal_by is null or appeal_by in ('buyer', 'merchant')`)
      .addCheckConstraint(
        'c2c_orders_decision',
        sql`appeal_decision is null or appeal_decision in ('release', 'cancel')`,
      )
      .execute();
    // A retried order (same client id) finds the first one.
    await db.schema
      .createIndex('c2c_orders_request')
      .unique()
      .on('c2c_orders')
      .columns(['buyer_id', 'request_id'])
      .execute();
    // One open order per buyer and ad (SPEC: a buyer pays or cancels before ordering from the same ad again).
    await db.schema
      .createIndex('c2c_orders_open')
      .unique()
      .on('c2c_orders')
      .columns(['ad_id', 'buyer_id'])
      .where(sql.ref('status'), 'in', sql`(1, 2, 4)`)
      .execute();
    await db.schema.createIndex('c2c_orders_buyer').on('c2c_orders').columns(['buyer_id', 'id']).execute();
    await db.schema.createIndex('c2c_orders_merchant').on('c2c_orders').columns(['merchant_id', 'id']).execute();
    // The expiry job's scan: paying orders by the end of their window.
    await db.schema.createIndex('c2c_orders_due').on('c2c_orders').columns(['status', 'pay_until']).execute();
  },
};
