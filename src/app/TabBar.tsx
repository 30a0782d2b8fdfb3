import { Link, useLocation } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon';
import { HOME_PATH } from '../lib/first-route';
import { isTabPath, TABS } from './tabs';

/** The bottom tab bar, on tab pages only. */
export function TabBar(): ReactElement | null {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  if (!isTabPath(pathname)) return null;
  const current = pathname === '/' ? HOME_PATH : pathname;
  return (
    <nav className="tabbar" aria-label={t('nav.tabs')}>
      {TABS.map((tab) => (
        <Link
          key={tab.path}
          to={tab.path}
          replace
          className={tab.path === current ? 'tab is-active' : 'tab'}
          aria-current={tab.path === current ? 'page' : undefined}
        >
          <Icon name={tab.icon} size={22} />
          <span className="tab-label">{t(tab.labelKey)}</span>
        </Link>
      ))}
    </nav>
  );
}
