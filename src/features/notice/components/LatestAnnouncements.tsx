import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import '../notice.css';
import { useAnnouncements } from '../hooks/queries';
import { NoticeRow } from './NoticeRow';

/**
 * The home page's strip of the latest announcements, unread ones marked for a logged-in user, each opening its
 * notice, with a link to all notices. Shows nothing while loading, after a failure or when there are none: the home
 * page is about the market.
 */
export function LatestAnnouncements(): ReactElement | null {
  const { t } = useTranslation();
  const { data } = useAnnouncements();
  if (!data || data.items.length === 0) return null;
  return (
    <section className="notice-strip" aria-labelledby="notice-strip-title" data-testid="home-announcements">
      <header className="notice-strip-head">
        <h2 className="section-title" id="notice-strip-title">
          {t('notice.home.title')}
          {data.unread ? (
            <span className="notice-count" data-testid="home-unread">
              {t('notice.home.unreadCount', { count: data.unread })}
            </span>
          ) : null}
        </h2>
        <Link to="/pages/notice/index" search={{ kind: 'announcement' }} className="notice-strip-all">
          {t('notice.home.all')}
        </Link>
      </header>
      <ul className="notice-list">
        {data.items.map((n) => (
          <NoticeRow key={n.id} notice={n} compact />
        ))}
      </ul>
    </section>
  );
}
