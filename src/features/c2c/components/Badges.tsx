import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { C2cLabel } from '../../../../machines/c2c/order.machine';
import type { C2cPayType } from '../../../../protocol/c2c';

/** An order's status (SPEC 4 "C2C order status", 3 and 4 ours, and "expiring" once the window has ended). */
export function StatusBadge({ label }: { label: C2cLabel }): ReactElement {
  const { t } = useTranslation();
  return (
    <span className={`badge c2c-status c2c-status-${label}`} data-testid="c2c-status" data-label={label}>
      {t(`c2c.status.${label}`)}
    </span>
  );
}

/** The payment methods of an ad, as small chips. */
export function PayTypes({ types }: { types: readonly C2cPayType[] }): ReactElement {
  const { t } = useTranslation();
  return (
    <ul className="c2c-paytypes" aria-label={t('c2c.ad.payMethods')}>
      {types.map((type) => (
        <li key={type} className="c2c-paytype">
          {t(`c2c.payType.${type}`)}
        </li>
      ))}
    </ul>
  );
}
