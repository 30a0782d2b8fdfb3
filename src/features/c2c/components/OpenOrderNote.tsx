import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { C2cOrder } from '../../../../protocol/c2c';
import { Icon } from '../../../components/Icon';
import { useServerNow } from '../../../hooks/useServerNow';
import { OrderRow } from './OrderRow';

/**
 * On an ad's page, in place of the order form: the user already has an open order on this ad (the server takes one per
 * buyer and ad), said before anything is typed, with that order's row as the way to it.
 */
export function OpenOrderNote({ order }: { order: C2cOrder }): ReactElement {
  const { t } = useTranslation();
  const now = useServerNow();
  return (
    <section className="c2c-stack" data-testid="c2c-open-order">
      <div className="note note-info" role="status">
        <Icon name="info" size={18} />
        <p className="c2c-flat">{t('c2c.buy.openOrder')}</p>
      </div>
      <ul className="c2c-cards" aria-label={t('c2c.buy.openOrderLink')}>
        <OrderRow order={order} now={now} />
      </ul>
    </section>
  );
}
