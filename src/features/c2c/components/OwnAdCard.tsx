import { Link } from '@tanstack/react-router';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { C2cOwnAd } from '../../../../protocol/c2c';
import { Button } from '../../../components/Button';
import { formatHolding } from '../../../lib/figures';
import { formatC2cPrice, formatFiat } from '../format';
import { PayTypes } from './Badges';
import { ConfirmDialog } from './ConfirmDialog';

/** One of the merchant's own ads: its terms, what is left and sold, its state; edit and close while it is open. */
export function OwnAdCard({ ad, busy, onClose }: { ad: C2cOwnAd; busy: boolean; onClose: () => void }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [asking, setAsking] = useState(false);
  const open = ad.state === 'open';
  return (
    <li className="card c2c-ad" data-testid={`c2c-own-ad-${ad.id}`} data-state={ad.state}>
      <div className="c2c-row-head">
        <span className="c2c-row-title">
          <span className="c2c-row-name">
            {ad.coin} / {ad.fiat}
          </span>
          <span className="c2c-muted-line">
            {formatC2cPrice(ad.price, lang)} {ad.fiat}
          </span>
        </span>
        <span className={`badge c2c-ad-state c2c-ad-state-${ad.state}`}>{t(`c2c.merchant.state.${ad.state}`)}</span>
      </div>
      <dl className="kv c2c-kv">
        <dt>{t('c2c.merchant.amount')}</dt>
        <dd>{formatHolding(ad.amount, ad.coin, lang, ad.scale)}</dd>
        <dt>{t('c2c.ad.available')}</dt>
        <dd>{formatHolding(ad.available, ad.coin, lang, ad.scale)}</dd>
        <dt>{t('c2c.merchant.sold')}</dt>
        <dd>{formatHolding(ad.deal_volume, ad.coin, lang, ad.scale)}</dd>
        <dt>{t('c2c.ad.limits')}</dt>
        <dd>
          {formatFiat(ad.min_fiat, lang)} – {formatFiat(ad.max_fiat, lang)} {ad.fiat}
        </dd>
      </dl>
      <PayTypes types={ad.pay_methods.map((m) => m.type)} />
      {open ? (
        <div className="c2c-action-row">
          <Link to="/pages/assets/c2c/adEdit" search={{ id: ad.id }} className="btn btn-secondary">
            <span className="btn-label">{t('c2c.merchant.edit')}</span>
          </Link>
          <Button variant="secondary" busy={busy} onClick={() => setAsking(true)} data-testid={`c2c-close-ad-${ad.id}`}>
            {t('c2c.merchant.close')}
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={asking}
        title={t('c2c.confirm.closeAd.title')}
        text={t('c2c.confirm.closeAd.text')}
        confirm={t('c2c.confirm.closeAd.confirm')}
        danger
        onConfirm={onClose}
        onClose={() => setAsking(false)}
      />
    </li>
  );
}
