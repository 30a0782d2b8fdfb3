import { type ReactElement, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NEWS_KINDS, NEWS_TEXT_LANGS, type NewsKind } from '../../../protocol/news';
import type { OpsNewsArticle } from '../../../protocol/ops-news';
import { opsCall, opsQuery } from '../api';
import { PublicationCard, PublicationEditor, PublicationsScreen, publicationTitle, textsDraft } from '../Publications';
import { formatTime } from '../parts';

const QUERY_KEY = ['ops', 'news', 'articles'] as const;

/**
 * News and announcements (role support): every one with its state, written in any of the seven languages (German and
 * English needed to publish; readers whose language is missing read English, then German), published or taken back,
 * deleted. Every change is audited under the operator's name.
 */
export function NewsScreen(): ReactElement {
  const { t } = useTranslation();
  return (
    <PublicationsScreen
      title={t('console.nav.news')}
      intro={t('console.news.intro')}
      newLabel={t('console.news.new')}
      empty={t('console.news.empty')}
      queryKey={QUERY_KEY}
      load={(signal) => opsQuery('ops/news/articles', {}, signal).then((d) => d.items)}
      editor={(item, onDone) => <NewsEditor article={item} onDone={onDone} />}
      card={(a, onEdit) => (
        <PublicationCard
          key={a.id}
          testId={`ops-news-${a.id}`}
          title={publicationTitle(a.id, a.texts)}
          published={a.published}
          queryKey={QUERY_KEY}
          facts={[
            [t('console.news.kind'), t(`console.news.kinds.${a.kind}`)],
            [
              t('console.news.langs'),
              NEWS_TEXT_LANGS.filter((l) => a.texts[l])
                .map((l) => t(`console.texts.lang.${l}`))
                .join(', '),
            ],
            ...(a.published_at === null ? [] : [[t('console.news.publishedAt'), formatTime(a.published_at)] as const]),
            [t('console.news.updated'), formatTime(a.updated_at)],
          ]}
          onEdit={onEdit}
          publish={(published) => opsCall('ops/news/publish', { id: String(a.id), published: published ? '1' : '0' })}
          remove={() => opsCall('ops/news/delete', { id: String(a.id) })}
        />
      )}
    />
  );
}

function NewsEditor({ article, onDone }: { article: OpsNewsArticle | null; onDone: () => void }): ReactElement {
  const { t } = useTranslation();
  const id = useId();
  const [kind, setKind] = useState<NewsKind>(article?.kind ?? 'announcement');
  return (
    <PublicationEditor
      label={t('console.news.editor')}
      langs={NEWS_TEXT_LANGS}
      initial={textsDraft(article?.texts, NEWS_TEXT_LANGS)}
      queryKey={QUERY_KEY}
      onDone={onDone}
      save={(texts) => opsCall('ops/news/save', { kind, ...(article ? { id: String(article.id) } : {}), ...texts })}
    >
      <label className="field-label" htmlFor={`${id}-kind`}>
        {t('console.news.kind')}
      </label>
      <select
        id={`${id}-kind`}
        className="ops-select"
        value={kind}
        onChange={(e) => setKind(e.target.value as NewsKind)}
      >
        {NEWS_KINDS.map((value) => (
          <option key={value} value={value}>
            {t(`console.news.kinds.${value}`)}
          </option>
        ))}
      </select>
    </PublicationEditor>
  );
}
