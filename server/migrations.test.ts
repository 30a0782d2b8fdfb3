import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { withLedger } from './ledger';
import { withPriceRecord } from './market';
import { MIGRATIONS, migrateToLatest } from './migrations';
import { type DatabaseHandle, isUniqueViolation, openSqlite } from './platform/db/connect';
import { runMigrations } from './platform/db/migrator';
import { openPostgresSchema } from './testing';

const TABLES = [
  'actor_traces',
  'bank_cards',
  'c2c_ads',
  'c2c_merchants',
  'c2c_orders',
  'chat_conversations',
  'chat_members',
  'chat_messages',
  'code_outbox',
  'deposit_addresses',
  'deposits',
  'favourites',
  'finance_orders',
  'finance_products',
  'funding_coins',
  'help_article_texts',
  'help_articles',
  'identity_verifications',
  'ieo_projects',
  'ieo_subscriptions',
  'ledger_accounts',
  'ledger_currencies',
  'ledger_entries',
  'ledger_holds',
  'ledger_postings',
  'lever_positions',
  'listed_coins',
  'mail_outbox',
  'news_article_texts',
  'news_articles',
  'news_reads',
  'operator_sessions',
  'operators',
  'ops_audit',
  'option_contracts',
  'platform_settings',
  'poll_options',
  'poll_votes',
  'polls',
  'price_alerts',
  'price_batches',
  'price_pins',
  'price_ticks',
  'rate_limit_hits',
  'referral_partners',
  'referral_rebates',
  'request_ids',
  'sessions',
  'spot_orders',
  'uploads',
  'user_events',
  'users',
  'verification_codes',
  'wallet_links',
  'wallet_nonces',
  'withdraw_addresses',
  'withdrawals',
];

/** SQLite always; PostgreSQL in a throwaway schema when TEST_DATABASE_URL is set. */
const targets: Array<[string, () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>]> = [
  [
    'sqlite',
    async () => {
      const handle = openSqlite(':memory:');
      return { handle, close: () => handle.db.destroy() };
    },
  ],
];
const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) targets.push(['postgres', () => openPostgresSchema(pgUrl)]);

describe.each(targets)('migrations on %s', (_name, open) => {
  it('create every table, run twice without harm, and keep the dialects alike', async () => {
    const { handle, close } = await open();
    try {
      await migrateToLatest(handle);
      await migrateToLatest(handle);
      // PostgreSQL introspection sees every schema; other test files' schemas (or a killed run's) are not ours.
      const own =
        handle.kind === 'postgres'
          ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(handle.db)).rows[0]?.schema
          : undefined;
      const tables = (await handle.db.introspection.getTables())
        .filter((t) => own === undefined || t.schema === own)
        .map((t) => t.name)
        .sort();
      expect(tables).toEqual(TABLES);

      // Millisecond times and counts come back as numbers in both dialects.
      const at = 1_795_000_000_123;
      await handle.db.insertInto('rate_limit_hits').values({ bucket: 'b', at }).execute();
      const row = await handle.db.selectFrom('rate_limit_hits').select(['id', 'at']).executeTakeFirstOrThrow();
      expect(row).toEqual({ id: 1, at });
      const count = await handle.db
        .selectFrom('rate_limit_hits')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(count.n).toBe(1);

      // Unique violations are recognised in both dialects.
      await handle.db.insertInto('platform_settings').values({ key: 'k', value: 'v' }).execute();
      const error = await sql`insert into platform_settings (key, value) values ('k', 'w')`
        .execute(handle.db)
        .catch((err: unknown) => err);
      expect(isUniqueViolation(error)).toBe(true);
      expect(isUniqueViolation(new Error('other'))).toBe(false);
    } finally {
      await close();
    }
  });

  it('fill the ledger currencies from the coins listed before them', async () => {
    const { handle, close } = await open();
    try {
      await runMigrations(
        handle,
        MIGRATIONS.filter((m) => m.name < '0026'),
      );
      await withPriceRecord(handle.db)
        .insertInto('listed_coins')
        .values({
          id: 1000,
          symbol: 'OLDC',
          name: 'Old Coin',
          price_scale: 5,
          qty_scale: 0,
          start_price: '0.08000',
          sigma_per_minute: '0.002',
          trade_size: '100',
          listed_at: 1_795_000_000_000,
          created_at: 1_795_000_000_123,
        })
        .execute();
      await migrateToLatest(handle);
      const rows = await withLedger(handle.db).selectFrom('ledger_currencies').selectAll().execute();
      expect(rows).toEqual([{ symbol: 'OLDC', scale: 8, created_at: 1_795_000_000_123 }]);
    } finally {
      await close();
    }
  });
});
