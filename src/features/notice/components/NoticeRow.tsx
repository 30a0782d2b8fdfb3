import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { NewsSummary } from '../../../../protocol/news';
import { Icon } from '../../../components/Icon';
import { formatDateTime } from '../../../lib/format';

export const NOTICE_PATH = '/pages/index/notice/notice';

/** The `lang` attribute of a text in another language than the interface (a reader in Thai may read English). */
export const langIfOther = (textLang: string, uiLang: string) => (textLang === uiLang ? undefined : textLang);

/**
 * One notice in a list: its kind and date, title and excerpt (`compact`: title and date only, for the home strip),
 * marked when the logged-in reader has not opened it yet. Opens index/notice/notice.
 */
export function NoticeRow({ notice: n, compact = false }: { notice: NewsSummary; compact?: boolean }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = langIfOther(n.lang, i18n.language);
  const unread = n.read === false;
  return (
    <li>
      <Link
        to={NOTICE_PATH}
        search={{ id: n.id }}
        className={unread ? 'notice-row is-unread' : 'notice-row'}
        data-testid={`notice-${n.id}`}
        data-unread={unread ? 'true' : undefined}
      >
        <span className="notice-row-mark" aria-hidden="true">
          <Icon name={n.kind === 'announcement' ? 'alert' : 'document'} size={18} />
        </span>
        <span className="notice-row-text">
          <span className="notice-row-meta">
            {compact ? null : <span className="notice-tag">{t(`notice.kinds.${n.kind}`)}</span>}
            <time dateTime={new Date(n.published_at).toISOString()}>
              {formatDateTime(n.published_at, i18n.language, false)}
            </time>
            {unread ? <span className="notice-unread">{t('notice.unread')}</span> : null}
          </span>
          <span className="notice-row-title" lang={lang}>
            {n.title}
          </span>
          {!compact && n.excerpt ? (
            <span className="notice-row-excerpt" lang={lang}>
              {n.excerpt}
            </span>
          ) : null}
        </span>
        <Icon name="chevron" size={18} className="notice-row-chevron" />
      </Link>
    </li>
  );
}
