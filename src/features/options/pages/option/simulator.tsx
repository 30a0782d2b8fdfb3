import type { ReactElement } from 'react';
import { OptionTrade } from '../../components/OptionTrade';

/** option/simulator: the same screen on the simulator book, with practice funds (RULES "Simulator book"). */
export default function OptionSimulatorPage(): ReactElement {
  return <OptionTrade book="simulator" />;
}
