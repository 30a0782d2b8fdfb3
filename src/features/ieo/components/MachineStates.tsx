import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { labelOf } from '../../../../machines/ieo/steps';
import { MachineDrawing } from '../../../components/MachineDrawing';
import { isStep, subscriptionGraph } from '../machine-graph';

/** The subscription's state machine with this order's current state marked (QA follows the live order on it). */
export function MachineStates({ current }: { current: string }): ReactElement {
  const { t } = useTranslation();
  return (
    <MachineDrawing
      graph={subscriptionGraph()}
      current={current}
      title={t('ieo.machine.title')}
      note={t('ieo.machine.note')}
      anyState={t('ieo.machine.any')}
      here={t('ieo.machine.current')}
      labelOf={(state) => (isStep(state) ? t(`ieo.label.${labelOf(state)}`) : null)}
      testId="ieo-machine"
    />
  );
}
