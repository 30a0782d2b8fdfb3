import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { type LiveSnapshot, OrderFlow } from '../../../app/OrderFlow';

/** The subscription's state machine with its current state marked ("show order flow"; QA follows the order on it). */
export function MachineStates({ snapshot }: { snapshot: LiveSnapshot }): ReactElement | null {
  const { t } = useTranslation();
  return <OrderFlow drawing="ieo-subscription" snapshot={snapshot} announce title={t('ieo.machine.title')} />;
}
