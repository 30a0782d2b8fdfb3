import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon';
import { Page } from '../components/Page';
import { HOME_PATH } from '../lib/first-route';

export function NotFound(): ReactElement {
  const { t } = useTranslation();
  return (
    <Page title={t('notFound.title')}>
      <div className="page-center state-view">
        <span className="state-icon">
          <Icon name="alert" size={28} />
        </span>
        <h2 className="state-title">{t('notFound.heading')}</h2>
        <p className="state-text">{t('notFound.text')}</p>
        <Link to={HOME_PATH} replace className="btn btn-primary">
          <span className="btn-label">{t('notFound.home')}</span>
        </Link>
      </div>
    </Page>
  );
}
