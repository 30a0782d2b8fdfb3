import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { InviteInfo } from '../../../../protocol/referral';
import { keptRatio } from '../bonus';
import { usePercent } from '../hooks/usePercent';

/**
 * The programme's rule in plain words (RULES "Referral and partners"), with the share in force from user/invite:
 * a share of real trading fees, no sign-up bonus, and no promise of income.
 */
export function RuleCard({ info }: { info: InviteInfo }): ReactElement {
  const { t } = useTranslation();
  const percent = usePercent();
  const partner = info.partner?.status === 'active' ? info.partner : null;
  return (
    <section className="card promo-rules" aria-labelledby="promo-rules-title" data-testid="promo-rules">
      <h2 id="promo-rules-title" className="promo-section-title">
        {t('promotion.rules.title')}
      </h2>
      <ul>
        <li>{t('promotion.rules.share', { share: percent(info.share.ratio) })}</li>
        {partner ? (
          <li>
            {t('promotion.rules.partner', {
              ratio: percent(partner.ratio),
              bonus: percent(partner.bonus),
              kept: percent(keptRatio(partner.ratio, partner.bonus)),
            })}
          </li>
        ) : null}
        <li>{t('promotion.rules.fixed')}</li>
        <li>{t('promotion.rules.noBonus')}</li>
        <li>{t('promotion.rules.noPromise')}</li>
        <li>{t('promotion.rules.leaderboard')}</li>
      </ul>
    </section>
  );
}
