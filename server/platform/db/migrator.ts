import { type DatabaseIntrospector, type Kysely, type Migration, Migrator, sql, type TableMetadata } from 'kysely';
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
    db: schema ? askingOnlyAbout(db, schema) : db,
    provider: { getMigrations: async () => migrationTable(list, kind) },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed`, { cause: error });
  }
}

/**
 * `db` whose introspection sees one PostgreSQL schema. Kysely's migrator asks it whether its own two tables exist, and
 * Kysely's answer reads every schema's catalog through functions that look names up again (`has_schema_privilege`,
 * `pg_get_serial_sequence`): a schema dropped or a column renamed elsewhere at that moment fails the whole query
 * ("schema … does not exist"). That happened with test files migrating side by side, each in its own schema. A plain
 * catalog read of this schema is a consistent snapshot and all the migrator needs (names; it reads no columns).
 */
function askingOnlyAbout<Tables>(db: Kysely<Tables>, schema: string): Kysely<Tables> {
  const getTables = async (): Promise<TableMetadata[]> => {
    const { rows } = await sql<{ name: string; kind: string }>`
      select c.relname as name, c.relkind as kind from pg_catalog.pg_class c
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${schema} and c.relkind in ('r', 'p', 'v')`.execute(db);
    return rows.map((row) => ({ name: row.name, schema, isView: row.kind === 'v', columns: [] }));
  };
  const introspection: DatabaseIntrospector = {
    getSchemas: async () => [{ name: schema }],
    getTables,
    getMetadata: async () => ({ tables: await getTables() }),
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, property, target);
      // Kysely's methods use private fields: they must run on the real instance, not on the proxy.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
