import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ListGroup, ListItem } from '../../../components/List';

/** The ways between the IEO pages: the projects, the user's overview and all their subscriptions. */
export function IeoLinks({ show }: { show: readonly ('projects' | 'overview' | 'orders')[] }): ReactElement {
  const { t } = useTranslation();
  return (
    <ListGroup>
      {show.includes('projects') ? (
        <ListItem icon="star" label={t('ieo.links.projects')} to="/pages/publication/index" />
      ) : null}
      {show.includes('overview') ? (
        <ListItem icon="assets" label={t('ieo.links.overview')} to="/pages/assets/ieo/index" />
      ) : null}
      {show.includes('orders') ? (
        <ListItem icon="document" label={t('ieo.links.orders')} to="/pages/assets/ieo/orderList" />
      ) : null}
    </ListGroup>
  );
}
