import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ListGroup, ListItem } from '../../../components/List';

/** The ways on from a product list: the user's orders and the rules. */
export function FinanceLinks(): ReactElement {
  const { t } = useTranslation();
  return (
    <ListGroup>
      <ListItem icon="document" label={t('finance.links.orders')} to="/pages/finance/ordersPage" />
      <ListItem icon="info" label={t('finance.links.rules')} to="/pages/finance/rulePage" />
    </ListGroup>
  );
}
