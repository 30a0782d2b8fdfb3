import type { ReactElement } from 'react';
import { LeverTrade } from '../../components/LeverTrade';

/** lever/simulator: the same screen on the simulator book, with practice funds (RULES "Simulator book"). */
export default function LeverSimulatorPage(): ReactElement {
  return <LeverTrade book="simulator" />;
}
