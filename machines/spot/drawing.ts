import type { MachineEntry, MachineWalks } from '../model';
import { spotOrderMachine } from './order.machine';
import { spotOrderWalks } from './order.model';

/** How QA finds this machine (machines/registry.ts collects every product's drawing.ts). */
export const drawing: MachineEntry = {
  id: 'spot-order',
  name: 'Spot order',
  models:
    'One spot order from the ticket to completed or cancelled: its entry tick, a resting limit, cancelling, and stale prices.',
  machine: spotOrderMachine,
  walks: spotOrderWalks as unknown as MachineWalks,
};
