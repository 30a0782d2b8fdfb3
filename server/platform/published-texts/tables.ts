import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Lang } from '../../../protocol/lang';
import { handleOf } from '../db/connect';
import type { Database } from '../db/schema';
import type { MessageKey } from '../i18n/messages';
import type { PublicationStore } from './store';
import { groupTexts, type StoredTexts, type TextInput, type TextPolicy } from './texts';

/**
 * A PublicationStore over two tables of the same shape in every module (help articles, news): the publications
 * (`id`, `published` 0 or 1, `published_at`, `created_at`, `updated_at` and the module's own fields) and their texts
 * (`article_id`, `lang`, `title`, `body`, `updated_at`, and any columns the module adds). Written in plain SQL over the
 * table names the module gives (constants), so the same code runs for each on SQLite and PostgreSQL.
 */
export interface PublicationTables<L extends Lang, F extends object> {
  /** The audit's subject type (`help_article`), also the prefix of its actions. */
  subject: string;
  policy: TextPolicy<L>;
  notFound: MessageKey;
  table: string;
  textsTable: string;
  /** The module's own columns of `table`. */
  fields: readonly (keyof F & string)[];
  /** More columns of a text row (the help centre's search text). */
  textColumns?: (text: TextInput) => Record<string, unknown>;
  /** Tables whose rows name a publication by `article_id` and go with it (news: the read marks). */
  dependents?: readonly string[];
}

/** A publication as operators see it: its state, times, own fields and texts. */
export type Publication<L extends Lang, F extends object> = F & {
  id: number;
  published: boolean;
  published_at: number | null;
  created_at: number;
  updated_at: number;
  texts: StoredTexts<L>;
};

type Row = Record<string, unknown>;
const num = (v: unknown): number => Number(v);

/** `a = 1, b = 2` or `(a, b) values (1, 2)` from an object of columns. */
const assignments = (values: Row) =>
  sql.join(Object.entries(values).map(([column, value]) => sql`${sql.ref(column)} = ${value}`));
const insertion = (values: Row) =>
  sql`(${sql.join(Object.keys(values).map((c) => sql.ref(c)))}) values (${sql.join(Object.values(values))})`;

export interface PublicationTableStore<L extends Lang, F extends object>
  extends PublicationStore<L, Publication<L, F>, F> {
  /** Every publication (drafts too) in `order`. */
  all(db: Kysely<Database>, order: RawBuilder<unknown>): Promise<Publication<L, F>[]>;
  /** The texts of publications by id (only those in `langs` when given). */
  textsOf(db: Kysely<Database>, ids: readonly number[], langs?: readonly Lang[]): Promise<Map<number, StoredTexts<L>>>;
}

export function tableStore<L extends Lang, F extends object>(t: PublicationTables<L, F>): PublicationTableStore<L, F> {
  const table = sql.table(t.table);
  const textsTable = sql.table(t.textsTable);

  async function textsOf(db: Kysely<Database>, ids: readonly number[], langs?: readonly Lang[]) {
    if (ids.length === 0) return new Map<number, StoredTexts<L>>();
    const { rows } = await sql<{ owner: number; lang: L; title: string; body: string; updated_at: number }>`
      select article_id as owner, lang, title, body, updated_at from ${textsTable}
      where article_id in (${sql.join(ids)})
      ${langs ? sql`and lang in (${sql.join(langs)})` : sql``}`.execute(db);
    return groupTexts(rows.map((r) => ({ ...r, owner: num(r.owner), updated_at: num(r.updated_at) })));
  }

  const toPublication = (row: Row, texts: Map<number, StoredTexts<L>>): Publication<L, F> =>
    ({
      id: num(row.id),
      ...Object.fromEntries(t.fields.map((f) => [f, row[f]])),
      published: num(row.published) === 1,
      published_at: row.published_at === null ? null : num(row.published_at),
      created_at: num(row.created_at),
      updated_at: num(row.updated_at),
      texts: texts.get(num(row.id)) ?? {},
    }) as Publication<L, F>;

  return {
    subject: t.subject,
    policy: t.policy,
    notFound: t.notFound,
    textsOf,
    async all(db, order) {
      const { rows } = await sql<Row>`select * from ${table} order by ${order}`.execute(db);
      const texts = await textsOf(
        db,
        rows.map((r) => num(r.id)),
      );
      return rows.map((r) => toPublication(r, texts));
    },
    async find(db, id, lock) {
      // PostgreSQL locks the row; SQLite's writer lock is held already.
      const forUpdate = lock && handleOf(db).kind === 'postgres' ? sql`for update` : sql``;
      const { rows } = await sql<Row>`select * from ${table} where id = ${id} ${forUpdate}`.execute(db);
      const row = rows[0];
      return row ? toPublication(row, await textsOf(db, [id])) : undefined;
    },
    fieldsOf: (p) => Object.fromEntries(t.fields.map((f) => [f, p[f]])) as F,
    async insert(trx, fields, published, at) {
      const values = {
        ...fields,
        published: published ? 1 : 0,
        published_at: published ? at : null,
        created_at: at,
        updated_at: at,
      };
      const { rows } = await sql<{ id: number }>`insert into ${table} ${insertion(values)} returning id`.execute(trx);
      return num(rows[0]?.id);
    },
    async update(trx, id, set, at) {
      const values =
        'fields' in set ? set.fields : { published: set.published ? 1 : 0, published_at: set.published ? at : null };
      await sql`update ${table} set ${assignments({ ...values, updated_at: at })} where id = ${id}`.execute(trx);
    },
    async writeText(trx, id, w, at) {
      const values = { title: w.title, body: w.body, ...t.textColumns?.(w), updated_at: at };
      if (w.isNew) {
        await sql`insert into ${textsTable} ${insertion({ article_id: id, lang: w.lang, ...values })}`.execute(trx);
      } else {
        await sql`update ${textsTable} set ${assignments(values)} where article_id = ${id} and lang = ${w.lang}`.execute(
          trx,
        );
      }
    },
    async remove(trx, id) {
      for (const dependent of [...(t.dependents ?? []), t.textsTable]) {
        await sql`delete from ${sql.table(dependent)} where article_id = ${id}`.execute(trx);
      }
      await sql`delete from ${table} where id = ${id}`.execute(trx);
    },
  };
}
