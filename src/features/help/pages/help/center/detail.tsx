import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { type HelpArticle, helpParagraphs, isHelpTextLang } from '../../../../../../protocol/help';
import { EmptyState } from '../../../../../components/assets/EmptyState';
import { Icon } from '../../../../../components/Icon';
import { Page } from '../../../../../components/Page';
import { PullToRefresh } from '../../../../../components/PullToRefresh';
import { LoadingOrFailed } from '../../../../../components/StateView';
import { loadFailed } from '../../../../../data/query';
import { useQueryParam } from '../../../../../hooks/hooks';
import { formatDateTime } from '../../../../../lib/format';
import { langIfOther } from '../../../components/ArticleList';
import { ContactSupport } from '../../../components/ContactSupport';
import { articleId, useHelpArticle } from '../../../hooks/queries';
import '../../../help.css';

/**
 * One help article (help/center/detail?id=, public): its topic, title and paragraphs, as plain text (never markup),
 * then the way to customer service and back to the help centre. A draft, a removed article or a bad link shows
 * "not available".
 */
export default function HelpArticlePage(): ReactElement {
  const { t } = useTranslation();
  const id = articleId(useQueryParam('id'));
  const article = useHelpArticle(id);
  return (
    <Page title={t('help.detail.title')} className="help-page">
      {id === null || article.data === null ? (
        <div className="help-stack">
          <EmptyState icon="alert" text={t('help.detail.notFound')} />
          <BackLink />
        </div>
      ) : !article.data ? (
        <LoadingOrFailed failed={loadFailed(article)} onRetry={() => void article.refetch()} />
      ) : (
        <PullToRefresh onRefresh={() => article.refetch()}>
          <ArticleView article={article.data} />
        </PullToRefresh>
      )}
    </Page>
  );
}

function ArticleView({ article: a }: { article: HelpArticle }): ReactElement {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.language;
  const lang = langIfOther(a.lang, uiLang);
  return (
    <div className="help-stack">
      <article className="card help-article" data-testid="help-article" aria-labelledby="help-article-title">
        <span className="help-tag">{t(`help.topics.${a.topic}`)}</span>
        <h2 className="help-article-title" id="help-article-title" lang={lang}>
          {a.title}
        </h2>
        <p className="help-muted">{t('help.detail.updated', { date: formatDateTime(a.updated_at, uiLang, false) })}</p>
        {!isHelpTextLang(uiLang) ? <p className="help-muted">{t('help.detail.inEnglish')}</p> : null}
        <div className="help-body" lang={lang} data-testid="help-body">
          {helpParagraphs(a.body).map((paragraph, i) => (
            // Paragraphs have no identity of their own; their order is the body's.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <p key={i}>{paragraph}</p>
          ))}
        </div>
      </article>
      <h2 className="help-group-title">{t('help.detail.more')}</h2>
      <ContactSupport topic={a.topic} />
      <BackLink />
    </div>
  );
}

function BackLink(): ReactElement {
  const { t } = useTranslation();
  return (
    <Link to="/pages/help/center/center" className="help-back" data-testid="help-back">
      <Icon name="back" size={16} />
      <span>{t('help.detail.back')}</span>
    </Link>
  );
}
