import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { IeoProject } from '../../../../protocol/ieo';
import { formatCoin, formatShare, shareOfSupply, sharePercentForBar } from '../format';

/** What was subscribed so far, in coins and as an exact share of the supply offered (cut, never rounded up). */
export function SubscribedShare({ project: p }: { project: IeoProject }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const share = formatShare(shareOfSupply(p.subscribed, p.supply), lang);
  const bar = sharePercentForBar(p.subscribed, p.supply);
  return (
    <div className="ieo-share" data-testid="ieo-share">
      <div className="ieo-share-line">
        <span className="ieo-share-label">{t('ieo.project.subscribed')}</span>
        <span className="ieo-share-value">{t('ieo.project.share', { share })}</span>
      </div>
      <div
        className="ieo-bar"
        role="progressbar"
        aria-label={t('ieo.project.subscribed')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={bar}
        aria-valuetext={share}
      >
        <span className="ieo-bar-fill" style={{ width: `${bar}%` }} />
      </div>
      <p className="ieo-share-amounts">
        {t('ieo.project.subscribedOf', {
          amount: formatCoin(p.subscribed, lang),
          supply: formatCoin(p.supply, lang),
          coin: p.coin,
        })}
      </p>
    </div>
  );
}
