import { type ReactElement, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HELP_TEXT_LANGS, HELP_TOPICS, type HelpTopic } from '../../../protocol/help';
import type { OpsArticle } from '../../../protocol/ops-support';
import { opsCall, opsQuery } from '../api';
import { PublicationCard, PublicationEditor, PublicationsScreen, publicationTitle, textsDraft } from '../Publications';
import { formatTime } from '../parts';

const QUERY_KEY = ['ops', 'help', 'articles'] as const;

/**
 * Help articles (role support): every article with its state, written and changed in German and English (both are
 * needed to publish; readers in other languages get the English text), published or taken back, deleted. Every change
 * is audited under the operator's name.
 */
export function HelpArticlesScreen(): ReactElement {
  const { t } = useTranslation();
  return (
    <PublicationsScreen
      title={t('console.nav.help')}
      intro={t('console.help.intro')}
      newLabel={t('console.help.new')}
      empty={t('console.help.empty')}
      queryKey={QUERY_KEY}
      load={(signal) => opsQuery('ops/help/articles', {}, signal).then((d) => d.items)}
      editor={(item, onDone) => <ArticleEditor article={item} onDone={onDone} />}
      card={(a, onEdit) => (
        <PublicationCard
          key={a.id}
          testId={`ops-article-${a.id}`}
          title={publicationTitle(a.id, a.texts)}
          published={a.published}
          queryKey={QUERY_KEY}
          facts={[
            [t('console.help.topic'), t(`console.help.topics.${a.topic}`)],
            [t('console.help.order'), String(a.sort_order)],
            ...HELP_TEXT_LANGS.map(
              (lang) => [t(`console.texts.title.${lang}`), a.texts[lang]?.title ?? t('console.help.missing')] as const,
            ),
            [t('console.help.updated'), formatTime(a.updated_at)],
          ]}
          onEdit={onEdit}
          publish={(published) => opsCall('ops/help/publish', { id: String(a.id), published: published ? '1' : '0' })}
          remove={() => opsCall('ops/help/delete', { id: String(a.id) })}
        />
      )}
    />
  );
}

function ArticleEditor({ article, onDone }: { article: OpsArticle | null; onDone: () => void }): ReactElement {
  const { t } = useTranslation();
  const id = useId();
  const [topic, setTopic] = useState<HelpTopic>(article?.topic ?? 'other');
  const [order, setOrder] = useState(String(article?.sort_order ?? 10));
  return (
    <PublicationEditor
      label={t('console.help.editor')}
      langs={HELP_TEXT_LANGS}
      initial={textsDraft(article?.texts, HELP_TEXT_LANGS)}
      queryKey={QUERY_KEY}
      onDone={onDone}
      save={(texts) =>
        opsCall('ops/help/save', {
          topic,
          sort_order: order,
          ...(article ? { id: String(article.id) } : {}),
          ...texts,
        })
      }
    >
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
    </PublicationEditor>
  );
}
