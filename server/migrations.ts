import { DOMAINS } from './domains';
import { migrationsOf } from './domains/compose';
import type { DatabaseHandle } from './platform/db/connect';
import type { DomainMigration } from './platform/db/migration-kit';
import { runMigrations } from './platform/db/migrator';

/** Every domain's migrations; the migrator runs them in name order (see platform/db/migrator.ts). */
export const MIGRATIONS: readonly DomainMigration[] = migrationsOf(DOMAINS);

/** Brings the schema up to date; throws (with the failing migration's error) when one fails. */
export function migrateToLatest(database: DatabaseHandle): Promise<void> {
  return runMigrations(database, MIGRATIONS);
}
