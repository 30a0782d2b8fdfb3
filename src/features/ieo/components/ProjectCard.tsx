import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { IeoProject } from '../../../../protocol/ieo';
import { Icon } from '../../../components/Icon';
import { formatDateTime } from '../../../lib/format';
import { formatCoin, formatMoney } from '../format';
import { projectStateAt } from '../terms';
import { ProjectStateBadge } from './Badges';
import { SubscribedShare } from './SubscribedShare';

/** One project in the list: its coin, prices, supply, what was subscribed so far, state and window; opens details. */
export function ProjectCard({ project: p, now }: { project: IeoProject; now: number }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <li data-testid={`ieo-project-${p.id}`}>
      <Link to="/pages/publication/details" search={{ id: p.id }} className="card ieo-card is-action">
        <div className="ieo-card-head">
          <span className="ieo-coin" aria-hidden="true">
            {p.coin.slice(0, 4)}
          </span>
          <span className="ieo-card-title">
            <span className="ieo-card-name">{p.name}</span>
            <span className="ieo-card-coin">{p.coin}</span>
          </span>
          <ProjectStateBadge state={projectStateAt(p, now)} />
          <Icon name="chevron" size={18} className="ieo-card-chevron" />
        </div>
        <div className="ieo-figures">
          <div>
            <span className="ieo-figure-value">{formatMoney(p.ieo_price, lang)}</span>
            <span className="ieo-figure-label">{t('ieo.project.ieoPriceUsdt')}</span>
          </div>
          <div>
            <span className="ieo-figure-value">{formatMoney(p.listing_price, lang)}</span>
            <span className="ieo-figure-label">{t('ieo.project.listingPriceUsdt')}</span>
          </div>
          <div>
            <span className="ieo-figure-value">{formatCoin(p.supply, lang)}</span>
            <span className="ieo-figure-label">{t('ieo.project.supply')}</span>
          </div>
        </div>
        <SubscribedShare project={p} />
        <p className="ieo-window">
          <Icon name="clock" size={14} />
          <span>
            {t('ieo.project.windowRange', {
              from: formatDateTime(p.starts_at, lang),
              to: formatDateTime(p.ends_at, lang),
            })}
          </span>
        </p>
      </Link>
    </li>
  );
}
