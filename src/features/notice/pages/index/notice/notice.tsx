import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { NewsArticle } from '../../../../../../protocol/news';
import { textParagraphs } from '../../../../../../protocol/published-texts';
import { EmptyState } from '../../../../../components/assets/EmptyState';
import { Icon } from '../../../../../components/Icon';
import { Page } from '../../../../../components/Page';
import { PullToRefresh } from '../../../../../components/PullToRefresh';
import { LoadingOrFailed } from '../../../../../components/StateView';
import { loadFailed } from '../../../../../data/query';
import { useQueryParam } from '../../../../../hooks/hooks';
import { formatDateTime } from '../../../../../lib/format';
import { langIfOther } from '../../../components/NoticeRow';
import { noticeId, useNotice } from '../../../hooks/queries';
import '../../../notice.css';

/**
 * One notice (index/notice/notice?id=, public): its kind, date, title and paragraphs as plain text (never markup).
 * Opening it marks it read for a logged-in user. A draft, a removed notice or a bad link shows "not available".
 */
export default function NoticePage(): ReactElement {
  const { t } = useTranslation();
  const id = noticeId(useQueryParam('id'));
  const notice = useNotice(id);
  return (
    <Page title={t('notice.detail.title')} className="notice-page">
      {id === null || notice.data === null ? (
        <div className="notice-stack">
          <EmptyState icon="alert" text={t('notice.detail.notFound')} />
          <BackLink />
        </div>
      ) : !notice.data ? (
        <LoadingOrFailed failed={loadFailed(notice)} onRetry={() => void notice.refetch()} />
      ) : (
        <PullToRefresh onRefresh={() => notice.refetch()}>
          <NoticeView notice={notice.data} />
        </PullToRefresh>
      )}
    </Page>
  );
}

function NoticeView({ notice: n }: { notice: NewsArticle }): ReactElement {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.language;
  const lang = langIfOther(n.lang, uiLang);
  return (
    <div className="notice-stack">
      <article className="card notice-article" data-testid="notice-article" aria-labelledby="notice-article-title">
        <span className="notice-tag">{t(`notice.kinds.${n.kind}`)}</span>
        <h2 className="notice-article-title" id="notice-article-title" lang={lang}>
          {n.title}
        </h2>
        <p className="notice-muted">{t('notice.published', { date: formatDateTime(n.published_at, uiLang) })}</p>
        {lang ? <p className="notice-muted">{t('notice.otherLang')}</p> : null}
        <div className="notice-body" lang={lang} data-testid="notice-body">
          {textParagraphs(n.body).map((paragraph, i) => (
            // Paragraphs have no identity of their own; their order is the body's.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <p key={i}>{paragraph}</p>
          ))}
        </div>
      </article>
      <BackLink />
    </div>
  );
}

function BackLink(): ReactElement {
  const { t } = useTranslation();
  return (
    <Link to="/pages/notice/index" className="notice-back" data-testid="notice-back">
      <Icon name="back" size={16} />
      <span>{t('notice.detail.back')}</span>
    </Link>
  );
}
