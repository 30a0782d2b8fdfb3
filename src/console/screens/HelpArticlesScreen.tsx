import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactElement, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HELP_TOPICS, type HelpTopic } from '../../../protocol/help';
import type { OpsArticle } from '../../../protocol/ops-support';
import { Button } from '../../components/Button';
import { opsCall, opsQuery } from '../api';
import { Facts, formatTime, ListState, notify, ScreenHead } from '../parts';

const QUERY_KEY = ['ops', 'help', 'articles'] as const;
const LANGS = ['de', 'en'] as const;

/**
 * Help articles (role support): every article with its state, written and changed in German and English (both are
 * needed to publish; readers in other languages get the English text), published or taken back, deleted. Every change
 * is audited under the operator's name.
 */
export function HelpArticlesScreen(): ReactElement {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<OpsArticle | 'new' | null>(null);
  const query = useQuery({
    queryKey: QUERY_KEY,
    queryFn: ({ signal }) => opsQuery('ops/help/articles', {}, signal).then((d) => d.items),
  });
  return (
    <>
      <ScreenHead
        title={t('console.nav.help')}
        intro={t('console.help.intro')}
        onRefresh={() => void query.refetch()}
        busy={query.isFetching}
      />
      {editing ? (
        <ArticleEditor article={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
      ) : (
        <Button className="btn-small" onClick={() => setEditing('new')}>
          {t('console.help.new')}
        </Button>
      )}
      <ListState query={query} empty={t('console.help.empty')}>
        {(items) => (
          <ul className="ops-cards">
            {items.map((a) => (
              <ArticleCard key={a.id} article={a} onEdit={() => setEditing(a)} />
            ))}
          </ul>
        )}
      </ListState>
    </>
  );
}

function ArticleCard({ article: a, onEdit }: { article: OpsArticle; onEdit: () => void }): ReactElement {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const title = a.texts.en?.title ?? a.texts.de?.title ?? `#${a.id}`;
  const act = async (run: () => ReturnType<typeof opsCall>, done: string) => {
    setError(null);
    const r = await run();
    if (!r.ok) return setError(r.message);
    notify(done);
    await client.invalidateQueries({ queryKey: [...QUERY_KEY] });
  };
  return (
    <li className="ops-card" data-testid={`ops-article-${a.id}`}>
      <header className="ops-card-head">
        <h2 className="ops-card-title">{title}</h2>
        <span className={a.published ? 'badge' : 'badge badge-warn'}>
          {t(a.published ? 'console.help.published' : 'console.help.draft')}
        </span>
      </header>
      <Facts
        items={[
          [t('console.help.topic'), t(`console.help.topics.${a.topic}`)],
          [t('console.help.order'), String(a.sort_order)],
          ...LANGS.map(
            (lang) => [t(`console.help.title.${lang}`), a.texts[lang]?.title ?? t('console.help.missing')] as const,
          ),
          [t('console.help.updated'), formatTime(a.updated_at)],
        ]}
      />
      {error ? (
        <p className="field-msg field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="ops-decision">
        <Button variant="secondary" className="btn-small" onClick={onEdit}>
          {t('console.help.edit')}
        </Button>
        <Button
          className="btn-small"
          onClick={() =>
            void act(
              () => opsCall('ops/help/publish', { id: String(a.id), published: a.published ? '0' : '1' }),
              t(a.published ? 'console.help.unpublishedNotice' : 'console.help.publishedNotice', { title }),
            )
          }
        >
          {t(a.published ? 'console.help.unpublish' : 'console.help.publish')}
        </Button>
        <Button
          variant="danger"
          className="btn-small"
          onClick={() => {
            if (window.confirm(t('console.help.deleteConfirm', { title })))
              void act(
                () => opsCall('ops/help/delete', { id: String(a.id) }),
                t('console.help.deletedNotice', { title }),
              );
          }}
        >
          {t('console.help.delete')}
        </Button>
      </div>
    </li>
  );
}

function ArticleEditor({ article, onDone }: { article: OpsArticle | null; onDone: () => void }): ReactElement {
  const { t } = useTranslation();
  const client = useQueryClient();
  const id = useId();
  const [topic, setTopic] = useState<HelpTopic>(article?.topic ?? 'other');
  const [order, setOrder] = useState(String(article?.sort_order ?? 10));
  const [texts, setTexts] = useState(() => ({
    de: { title: article?.texts.de?.title ?? '', body: article?.texts.de?.body ?? '' },
    en: { title: article?.texts.en?.title ?? '', body: article?.texts.en?.body ?? '' },
  }));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const fields: Record<string, string> = { topic, sort_order: order };
    if (article) fields.id = String(article.id);
    for (const lang of LANGS) {
      if (texts[lang].title || texts[lang].body) {
        fields[`${lang}.title`] = texts[lang].title;
        fields[`${lang}.body`] = texts[lang].body;
      }
    }
    const r = await opsCall('ops/help/save', fields as never);
    setBusy(false);
    if (!r.ok) return setError(r.message);
    notify(t('console.help.savedNotice'));
    await client.invalidateQueries({ queryKey: [...QUERY_KEY] });
    onDone();
  };
  return (
    <form className="ops-card ops-editor" onSubmit={(e) => void save(e)} aria-label={t('console.help.editor')}>
      <div className="ops-editor-row">
        <label className="field-label" htmlFor={`${id}-topic`}>
          {t('console.help.topic')}
        </label>
        <select
          id={`${id}-topic`}
          className="ops-select"
          value={topic}
          onChange={(e) => setTopic(e.target.value as HelpTopic)}
        >
          {HELP_TOPICS.map((value) => (
            <option key={value} value={value}>
              {t(`console.help.topics.${value}`)}
            </option>
          ))}
        </select>
        <label className="field-label" htmlFor={`${id}-order`}>
          {t('console.help.order')}
        </label>
        <input
          id={`${id}-order`}
          className="ops-select"
          inputMode="numeric"
          value={order}
          onChange={(e) => setOrder(e.target.value)}
        />
      </div>
      {LANGS.map((lang) => (
        <fieldset key={lang} className="ops-editor-lang">
          <legend className="field-label">{t(`console.help.lang.${lang}`)}</legend>
          <label className="field-label" htmlFor={`${id}-${lang}-title`}>
            {t(`console.help.title.${lang}`)}
          </label>
          <input
            id={`${id}-${lang}-title`}
            className="ops-select"
            value={texts[lang].title}
            maxLength={120}
            onChange={(e) => setTexts((v) => ({ ...v, [lang]: { ...v[lang], title: e.target.value } }))}
          />
          <label className="field-label" htmlFor={`${id}-${lang}-body`}>
            {t(`console.help.body.${lang}`)}
          </label>
          <textarea
            id={`${id}-${lang}-body`}
            className="ops-textarea"
            rows={6}
            value={texts[lang].body}
            onChange={(e) => setTexts((v) => ({ ...v, [lang]: { ...v[lang], body: e.target.value } }))}
          />
        </fieldset>
      ))}
      {error ? (
        <p className="field-msg field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="ops-decision">
        <Button type="submit" busy={busy}>
          {t('console.help.save')}
        </Button>
        <Button variant="secondary" onClick={onDone} disabled={busy}>
          {t('common.cancel')}
        </Button>
      </div>
    </form>
  );
}
