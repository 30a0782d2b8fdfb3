import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { type LiveSnapshot, OrderFlow } from '../../../app/OrderFlow';

/** The order's state machine with this order's current state marked ("show order flow"; QA follows the order on it). */
export function MachineStates({ snapshot }: { snapshot: LiveSnapshot }): ReactElement | null {
  const { t } = useTranslation();
  return <OrderFlow drawing="c2c-order" snapshot={snapshot} announce title={t('c2c.machine.title')} />;
}
