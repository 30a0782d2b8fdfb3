import { type Migration, Migrator, sql } from 'kysely';
import type { DatabaseHandle } from './connect';
import type { DomainMigration } from './migration-kit';

/**
 * Kysely's migration table for the given modules' migrations, run in name order whichever module owns them. Two
 * modules naming a migration alike is a programming error and stops the start.
 */
export function migrationTable(
  list: readonly DomainMigration[],
  kind: DatabaseHandle['kind'],
): Record<string, Migration> {
  const table: Record<string, Migration> = {};
  for (const m of [...list].sort((a, b) => a.name.localeCompare(b.name))) {
    if (table[m.name]) throw new Error(`two migrations named ${m.name}`);
    table[m.name] = { up: (db) => m.up(db, kind) };
  }
  return table;
}

/** Brings the schema up to date with `list`; throws (with the failing migration's error) when one fails. */
export async function runMigrations({ db, kind }: DatabaseHandle, list: readonly DomainMigration[]): Promise<void> {
  // PostgreSQL: name the schema of Kysely's own bookkeeping tables. Without it the migrator looks for them in every
  // schema, so a database being migrated in another schema at the same moment (parallel test files, each in its
  // own schema) makes it skip creating them in this one and then fail. In production this is `public`, as before.
  const schema =
    kind === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrationTable(list, kind) },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed`, { cause: error });
  }
}
