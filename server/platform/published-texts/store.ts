import type { Kysely } from 'kysely';
import type { Lang } from '../../../protocol/lang';
import { recordAudit } from '../audit';
import { handleOf } from '../db/connect';
import type { Database } from '../db/schema';
import { writeTransaction } from '../db/transaction';
import { BusinessError } from '../errors';
import type { MessageKey } from '../i18n/messages';
import {
  audited,
  checkNewTexts,
  checkPublishable,
  checkTextPatch,
  type OperatorAction,
  type StoredTexts,
  type TextInput,
  type TextPolicy,
  type TextWrite,
  textWrites,
  titlesOf,
} from './texts';

/**
 * The operators' writes of a module's publications (help articles, news): create, edit, publish or take back, delete.
 * Each runs in one transaction with its audit entry (`<subject>.create|update|publish|unpublish|delete`, naming the
 * operator); a refused write changes nothing. The module supplies its tables through a PublicationStore and checks
 * its own fields (topic, kind, ...) before calling.
 */

/** What the writes need to know of a publication. */
export interface PublicationView<L extends Lang> {
  id: number;
  published: boolean;
  texts: StoredTexts<L>;
}

export interface PublicationStore<L extends Lang, V extends PublicationView<L>, F extends object> {
  /** The audit's subject type (`help_article`), also the prefix of its actions. */
  subject: string;
  policy: TextPolicy<L>;
  /** The refusal when the id names nothing. */
  notFound: MessageKey;
  /** The publication with its texts; `lock`: against concurrent edits (in a write transaction). */
  find(db: Kysely<Database>, id: number, lock: boolean): Promise<V | undefined>;
  /** Its own fields as stored and audited (`{topic, sort_order}`, `{kind}`). */
  fieldsOf(view: V): F;
  /** Inserts the row (not its texts); returns its id. */
  insert(trx: Kysely<Database>, fields: F, published: boolean, at: number): Promise<number>;
  /** Sets its own fields, or its published state (with the publication time), and `updated_at`. */
  update(trx: Kysely<Database>, id: number, set: { fields: F } | { published: boolean }, at: number): Promise<void>;
  /** Inserts or updates one language's text. */
  writeText(trx: Kysely<Database>, id: number, write: TextWrite<L>, at: number): Promise<void>;
  /** Deletes the row and whatever belongs to it (texts, read marks). */
  remove(trx: Kysely<Database>, id: number): Promise<void>;
}

/** The audit entry of a change, in its transaction: `<subject>.<verb>` under the operator's name. */
function audit(
  trx: Kysely<Database>,
  subject: string,
  id: number,
  verb: string,
  detail: Record<string, unknown>,
  who: { operator: string; at: number },
) {
  return recordAudit(trx, { action: `${subject}.${verb}`, subjectType: subject, subjectId: id, detail, ...who });
}

async function locked<L extends Lang, V extends PublicationView<L>, F extends object>(
  trx: Kysely<Database>,
  store: PublicationStore<L, V, F>,
  id: number,
): Promise<V> {
  const view = await store.find(trx, id, true);
  if (!view) throw new BusinessError(store.notFound, { field: 'id' });
  return view;
}

/** Runs `work` in one write transaction on the publication, locked, with who changes it and when. */
function onPublication<L extends Lang, V extends PublicationView<L>, F extends object, R>(
  db: Kysely<Database>,
  store: PublicationStore<L, V, F>,
  id: number,
  action: OperatorAction,
  work: (trx: Kysely<Database>, before: V, who: { operator: string; at: number }) => Promise<R>,
): Promise<R> {
  const who = audited(action);
  return writeTransaction(handleOf(db), async (trx) => work(trx, await locked(trx, store, id), who));
}

/** A new publication with its texts; a draft unless `published` (which needs German and English). */
export async function createPublication<L extends Lang, V extends PublicationView<L>, F extends object>(
  db: Kysely<Database>,
  store: PublicationStore<L, V, F>,
  input: { fields: F; texts: Readonly<Record<string, TextInput>>; published: boolean },
  action: OperatorAction,
): Promise<V> {
  const texts = checkNewTexts(store.policy, input.texts, input.published);
  const { operator, at } = audited(action);
  return writeTransaction(handleOf(db), async (trx) => {
    const id = await store.insert(trx, input.fields, input.published, at);
    for (const t of texts) await store.writeText(trx, id, { ...t, isNew: true }, at);
    const detail = { ...input.fields, published: input.published };
    const given = Object.fromEntries(texts.map(({ lang, ...t }) => [lang, t]));
    await audit(trx, store.subject, id, 'create', { ...detail, texts: given }, { operator, at });
    return locked(trx, store, id);
  });
}

/**
 * Changes a publication's own fields or texts (adding a language, or a title or body of one). Only what differs is
 * written and audited (before and after); an edit that changes nothing records nothing (`changed: false`).
 */
export async function updatePublication<L extends Lang, V extends PublicationView<L>, F extends object>(
  db: Kysely<Database>,
  store: PublicationStore<L, V, F>,
  id: number,
  patch: { fields: Partial<F>; texts: Readonly<Record<string, Partial<TextInput>>> },
  action: OperatorAction,
): Promise<{ item: V; changed: boolean }> {
  const given = checkTextPatch(store.policy, patch.texts);
  return onPublication(db, store, id, action, async (trx, before, who) => {
    const { writes, changes } = textWrites(before.texts, given);
    const fields: F = { ...store.fieldsOf(before) };
    const fieldChanges: Record<string, { before: unknown; after: unknown }> = {};
    for (const key of Object.keys(patch.fields) as (keyof F & string)[]) {
      const after = patch.fields[key];
      if (after === undefined || after === fields[key]) continue;
      fieldChanges[key] = { before: fields[key], after };
      fields[key] = after as F[keyof F & string];
    }
    const detail = { ...fieldChanges, ...changes };
    if (Object.keys(detail).length === 0) return { item: before, changed: false };
    await store.update(trx, id, { fields }, who.at);
    for (const w of writes) await store.writeText(trx, id, w, who.at);
    await audit(trx, store.subject, id, 'update', detail, who);
    return { item: await locked(trx, store, id), changed: true };
  });
}

/**
 * Publishes (it needs a German and an English text) or takes back to a draft. Setting the state it already has
 * changes and records nothing (`changed: false`).
 */
export async function publishPublication<L extends Lang, V extends PublicationView<L>, F extends object>(
  db: Kysely<Database>,
  store: PublicationStore<L, V, F>,
  id: number,
  published: boolean,
  action: OperatorAction,
): Promise<{ item: V; changed: boolean }> {
  return onPublication(db, store, id, action, async (trx, before, who) => {
    if (before.published === published) return { item: before, changed: false };
    if (published) checkPublishable(before.texts);
    await store.update(trx, id, { published }, who.at);
    const titles = titlesOf(before.texts, store.policy.langs);
    await audit(trx, store.subject, id, published ? 'publish' : 'unpublish', { titles }, who);
    return { item: await locked(trx, store, id), changed: true };
  });
}

/** Removes a publication and its texts; the audit entry keeps what it said. */
export async function deletePublication<L extends Lang, V extends PublicationView<L>, F extends object>(
  db: Kysely<Database>,
  store: PublicationStore<L, V, F>,
  id: number,
  action: OperatorAction,
): Promise<void> {
  await onPublication(db, store, id, action, async (trx, before, who) => {
    await store.remove(trx, id);
    const detail = { ...store.fieldsOf(before), published: before.published, texts: before.texts };
    await audit(trx, store.subject, id, 'delete', detail, who);
  });
}
