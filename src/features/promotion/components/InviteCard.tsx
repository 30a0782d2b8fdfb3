import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { InviteInfo } from '../../../../protocol/referral';
import { usePercent } from '../hooks/usePercent';
import { CopyValue } from './CopyValue';

/** The absolute invite link: this app's origin and the server's link path (the register page with the code). */
export const inviteLink = (linkPath: string): string =>
  new URL(linkPath, globalThis.location?.origin ?? 'http://localhost').href;

/** The top of the page: what the programme is, the caller's counts and share, the invite code and link to copy. */
export function InviteCard({ info }: { info: InviteInfo }): ReactElement {
  const { t } = useTranslation();
  const percent = usePercent();
  return (
    <section className="card promo-hero" aria-labelledby="promo-hero-title">
      <h2 id="promo-hero-title" className="promo-hero-title">
        {t('promotion.hero.title')}
      </h2>
      <p className="promo-hero-text">{t('promotion.hero.text', { share: percent(info.share.ratio) })}</p>
      <dl className="promo-stats">
        <div>
          <dt>{t('promotion.hero.invitees')}</dt>
          <dd data-testid="promo-invitees">{info.invitees}</dd>
        </div>
        <div>
          <dt>{t('promotion.hero.verified')}</dt>
          <dd data-testid="promo-verified">{info.verified_invitees}</dd>
        </div>
        <div>
          <dt>{t('promotion.hero.share')}</dt>
          <dd data-testid="promo-share">{percent(info.share.ratio)}</dd>
        </div>
      </dl>
      <h3 className="promo-sub-title">{t('promotion.invite.title')}</h3>
      <dl className="promo-copies">
        <CopyValue label={t('promotion.invite.code')} value={info.invite_code} testId="promo-code" />
        <CopyValue label={t('promotion.invite.link')} value={inviteLink(info.link_path)} testId="promo-link" long />
      </dl>
    </section>
  );
}
