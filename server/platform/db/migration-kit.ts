import type { CreateTableBuilder, Kysely } from 'kysely';
import type { DialectKind } from './connect';

/**
 * One schema migration, owned by the module whose tables it creates. Migrations live in code (not files read at run
 * time) so they run the same under tsx, vitest and any bundling. Names sort in the order they run; a shipped
 * migration is never edited: a change is a new migration.
 */
export interface DomainMigration {
  name: string;
  up(db: Kysely<unknown>, kind: DialectKind): Promise<void>;
}

/** An auto-increment integer primary key named `id`, spelled the way each dialect wants it. */
export const withId =
  (kind: DialectKind) =>
  <T extends string>(table: CreateTableBuilder<T>): CreateTableBuilder<T, 'id'> =>
    kind === 'postgres'
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

/** Same, 64-bit: for tables that grow with every balance change (PostgreSQL's serial stops at 2^31). */
export const withBigId =
  (kind: DialectKind) =>
  <T extends string>(table: CreateTableBuilder<T>): CreateTableBuilder<T, 'id'> =>
    kind === 'postgres'
      ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
