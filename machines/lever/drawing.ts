import type { MachineEntry, MachineWalks } from '../model';
import { leverOrderMachine } from './order.machine';
import { leverOrderWalks } from './order.model';

/** How QA finds this machine (machines/registry.ts collects every product's drawing.ts). */
export const drawing: MachineEntry = {
  id: 'lever-order',
  name: 'Lever position',
  models:
    'One lever order and its position through phases 0 to 4: waiting or pending, holding, closing, closed or liquidated, cancelled.',
  machine: leverOrderMachine,
  walks: leverOrderWalks as unknown as MachineWalks,
};
