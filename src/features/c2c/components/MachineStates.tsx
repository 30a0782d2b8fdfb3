import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { MachineDrawing } from '../../../components/MachineDrawing';
import { orderGraph } from '../machine-graph';

/** The order's state machine with this order's current state marked (QA follows the live order on it). */
export function MachineStates({ current }: { current: string }): ReactElement {
  const { t } = useTranslation();
  return (
    <MachineDrawing
      graph={orderGraph()}
      current={current}
      title={t('c2c.machine.title')}
      note={t('c2c.machine.note')}
      anyState={t('c2c.machine.any')}
      here={t('c2c.machine.current')}
      testId="c2c-machine"
    />
  );
}
