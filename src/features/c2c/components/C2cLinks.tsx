import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ListGroup, ListItem } from '../../../components/List';

/** The ways between the C2C pages: the ads, the user's orders, and the merchant's page (merchants only). */
export function C2cLinks({ show }: { show: readonly ('market' | 'orders' | 'merchant')[] }): ReactElement | null {
  const { t } = useTranslation();
  if (show.length === 0) return null;
  return (
    <ListGroup>
      {show.includes('market') ? (
        <ListItem icon="spot" label={t('c2c.links.market')} to="/pages/assets/c2c/index" />
      ) : null}
      {show.includes('orders') ? (
        <ListItem icon="document" label={t('c2c.links.orders')} to="/pages/assets/c2c/orderList" />
      ) : null}
      {show.includes('merchant') ? (
        <ListItem icon="tag" label={t('c2c.links.merchant')} to="/pages/assets/c2c/merchant" />
      ) : null}
    </ListGroup>
  );
}
