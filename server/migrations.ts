import { migration0001 } from './domains/account';
import { migration0005, migration0008 } from './domains/bank-cards';
import { migration0017 } from './domains/c2c';
import { migration0016 } from './domains/chat';
import { migration0013 } from './domains/finance';
import { migration0007 } from './domains/funding';
import { migration0018 } from './domains/help';
import { migration0004 } from './domains/identity';
import { migration0015 } from './domains/ieo';
import { migration0024 } from './domains/inspection';
import { migration0012 } from './domains/lever';
import { migration0021 } from './domains/news';
import { migration0019 } from './domains/operators';
import { migration0011 } from './domains/options';
import { migration0023 } from './domains/polls';
import { migration0020 } from './domains/referral';
import { migration0010 } from './domains/spot';
import { migration0022 } from './domains/wallet-login';
import { migration0003 } from './ledger';
import { migration0002, migration0009, migration0014 } from './market';
import type { DatabaseHandle } from './platform/db/connect';
import type { DomainMigration } from './platform/db/migration-kit';
import { runMigrations } from './platform/db/migrator';
import { migration0025 } from './platform/request-ids';

/** Every module's migrations; the migrator runs them in name order (see platform/db/migrator.ts). */
export const MIGRATIONS: readonly DomainMigration[] = [
  migration0001,
  migration0002,
  migration0003,
  migration0004,
  migration0005,
  migration0007,
  migration0008,
  migration0009,
  migration0010,
  migration0011,
  migration0012,
  migration0013,
  migration0014,
  migration0015,
  migration0016,
  migration0017,
  migration0018,
  migration0019,
  migration0020,
  migration0021,
  migration0022,
  migration0023,
  migration0024,
  migration0025,
];

/** Brings the schema up to date; throws (with the failing migration's error) when one fails. */
export function migrateToLatest(database: DatabaseHandle): Promise<void> {
  return runMigrations(database, MIGRATIONS);
}
