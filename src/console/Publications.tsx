import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactElement, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Lang } from '../../protocol/lang';
import { TEXT_TITLE_MAX } from '../../protocol/published-texts';
import { Button } from '../components/Button';
import { Facts, ListState, notify, ScreenHead } from './parts';

/**
 * What the console's screens of published texts share (help articles, news): a card per publication with its state
 * and the actions edit, publish or take back, and delete; and an editor with a title and a body per language. The
 * screens add their own fields (topic, kind) and calls; every change is audited on the server.
 */

/** What the screens' calls answer, as far as these pieces care (an OpsResult of any call). */
type Done = { ok: true } | { ok: false; message: string };

export type TextsDraft<L extends Lang> = Record<L, { title: string; body: string }>;

/** The editor's starting texts: the stored ones, empty where a language has none. */
export function textsDraft<L extends Lang>(
  texts: Partial<Record<L, { title: string; body: string }>> | undefined,
  langs: readonly L[],
): TextsDraft<L> {
  return Object.fromEntries(
    langs.map((l) => [l, { title: texts?.[l]?.title ?? '', body: texts?.[l]?.body ?? '' }]),
  ) as TextsDraft<L>;
}

/** The form fields of a save: `<lang>.title` and `<lang>.body` of each language with a title or a body. */
export function textsFields<L extends Lang>(draft: TextsDraft<L>, langs: readonly L[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const lang of langs) {
    if (draft[lang].title || draft[lang].body) {
      fields[`${lang}.title`] = draft[lang].title;
      fields[`${lang}.body`] = draft[lang].body;
    }
  }
  return fields;
}

/** The title operators know a publication by: English, else German, else the first there is. */
export const publicationTitle = (id: number, texts: Partial<Record<Lang, { title: string }>>): string =>
  texts.en?.title ?? texts.de?.title ?? Object.values(texts).find((t) => t)?.title ?? `#${id}`;

/** A refused action's message, read out at once. */
function ErrorLine({ message }: { message: string | null }): ReactElement | null {
  return message ? (
    <p className="field-msg field-error" role="alert">
      {message}
    </p>
  ) : null;
}

/** One publication: its title, state and facts, and the actions on it (each reloads `queryKey` when done). */
export function PublicationCard({
  testId,
  title,
  published,
  facts,
  queryKey,
  onEdit,
  publish,
  remove,
}: {
  testId: string;
  title: string;
  published: boolean;
  facts: ReadonlyArray<readonly [label: string, value: ReactNode]>;
  queryKey: readonly unknown[];
  onEdit: () => void;
  /** Publishes (true) or takes back (false). */
  publish: (published: boolean) => Promise<Done>;
  remove: () => Promise<Done>;
}): ReactElement {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const act = async (run: () => Promise<Done>, done: string) => {
    setError(null);
    const r = await run();
    if (!r.ok) return setError(r.message);
    notify(done);
    await client.invalidateQueries({ queryKey: [...queryKey] });
  };
  return (
    <li className="ops-card" data-testid={testId}>
      <header className="ops-card-head">
        <h2 className="ops-card-title">{title}</h2>
        <span className={published ? 'badge' : 'badge badge-warn'}>
          {t(published ? 'console.texts.published' : 'console.texts.draft')}
        </span>
      </header>
      <Facts items={facts} />
      <ErrorLine message={error} />
      <div className="ops-decision">
        <Button variant="secondary" className="btn-small" onClick={onEdit}>
          {t('console.texts.edit')}
        </Button>
        <Button
          className="btn-small"
          onClick={() =>
            void act(
              () => publish(!published),
              t(published ? 'console.texts.unpublishedNotice' : 'console.texts.publishedNotice', { title }),
            )
          }
        >
          {t(published ? 'console.texts.unpublish' : 'console.texts.publish')}
        </Button>
        <Button
          variant="danger"
          className="btn-small"
          onClick={() => {
            if (window.confirm(t('console.texts.deleteConfirm', { title })))
              void act(remove, t('console.texts.deletedNotice', { title }));
          }}
        >
          {t('console.texts.delete')}
        </Button>
      </div>
    </li>
  );
}

/**
 * The editor of a publication: the screen's own fields (`children`), then a title and a body per language, saved by
 * `save` with the texts' form fields; `queryKey` is reloaded after a save.
 */
export function PublicationEditor<L extends Lang>({
  label,
  langs,
  initial,
  queryKey,
  save,
  onDone,
  children,
}: {
  label: string;
  langs: readonly L[];
  initial: TextsDraft<L>;
  queryKey: readonly unknown[];
  save: (textFields: Record<string, string>) => Promise<Done>;
  onDone: () => void;
  children: ReactNode;
}): ReactElement {
  const { t } = useTranslation();
  const client = useQueryClient();
  const id = useId();
  const [texts, setTexts] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const r = await save(textsFields(texts, langs));
    setBusy(false);
    if (!r.ok) return setError(r.message);
    notify(t('console.texts.savedNotice'));
    await client.invalidateQueries({ queryKey: [...queryKey] });
    onDone();
  };
  const change = (lang: L, part: 'title' | 'body', value: string) =>
    setTexts((v) => ({ ...v, [lang]: { ...v[lang], [part]: value } }));
  return (
    <form className="ops-card ops-editor" onSubmit={(e) => void submit(e)} aria-label={label}>
      <div className="ops-editor-row">{children}</div>
      {langs.map((lang) => (
        <fieldset key={lang} className="ops-editor-lang">
          <legend className="field-label">{t(`console.texts.lang.${lang}`)}</legend>
          <label className="field-label" htmlFor={`${id}-${lang}-title`}>
            {t(`console.texts.title.${lang}`)}
          </label>
          <input
            id={`${id}-${lang}-title`}
            className="ops-select"
            value={texts[lang].title}
            maxLength={TEXT_TITLE_MAX}
            onChange={(e) => change(lang, 'title', e.target.value)}
          />
          <label className="field-label" htmlFor={`${id}-${lang}-body`}>
            {t(`console.texts.body.${lang}`)}
          </label>
          <textarea
            id={`${id}-${lang}-body`}
            className="ops-textarea"
            rows={6}
            value={texts[lang].body}
            onChange={(e) => change(lang, 'body', e.target.value)}
          />
        </fieldset>
      ))}
      <ErrorLine message={error} />
      <div className="ops-decision">
        <Button type="submit" busy={busy}>
          {t('console.texts.save')}
        </Button>
        <Button variant="secondary" onClick={onDone} disabled={busy}>
          {t('common.cancel')}
        </Button>
      </div>
    </form>
  );
}

/**
 * A screen of publications: its heading, "new" (or the editor open on a new or an existing one) and the cards. The
 * screen gives the texts, how to load them (`queryKey`, `load`), its editor and its cards.
 */
export function PublicationsScreen<T extends { id: number }>({
  title,
  intro,
  newLabel,
  empty,
  queryKey,
  load,
  editor,
  card,
}: {
  title: string;
  intro: string;
  newLabel: string;
  empty: string;
  queryKey: readonly unknown[];
  load: (signal: AbortSignal) => Promise<T[]>;
  editor: (item: T | null, onDone: () => void) => ReactElement;
  card: (item: T, onEdit: () => void) => ReactElement;
}): ReactElement {
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const query = useQuery({ queryKey: [...queryKey], queryFn: ({ signal }) => load(signal) });
  return (
    <>
      <ScreenHead title={title} intro={intro} onRefresh={() => void query.refetch()} busy={query.isFetching} />
      {editing ? (
        editor(editing === 'new' ? null : editing, () => setEditing(null))
      ) : (
        <Button className="btn-small" onClick={() => setEditing('new')}>
          {newLabel}
        </Button>
      )}
      <ListState query={query} empty={empty}>
        {(items) => <ul className="ops-cards">{items.map((item) => card(item, () => setEditing(item)))}</ul>}
      </ListState>
    </>
  );
}
