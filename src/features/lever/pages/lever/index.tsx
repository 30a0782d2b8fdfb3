import type { ReactElement } from 'react';
import { LeverTrade } from '../../components/LeverTrade';

/** lever/index, the Lever tab: perpetual contracts on the real account (SPEC 2; verification needed to open, SPEC 8). */
export default function LeverIndexPage(): ReactElement {
  return <LeverTrade book="real" />;
}
