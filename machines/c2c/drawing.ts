import type { MachineEntry, MachineWalks } from '../model';
import { c2cOrderMachine } from './order.machine';
import { c2cOrderWalks } from './order.model';

/** How QA finds this machine (machines/registry.ts collects every product's drawing.ts). */
export const drawing: MachineEntry = {
  id: 'c2c-order',
  name: 'C2C order',
  models:
    'One C2C order for its buyer or merchant: the 30-minute payment window on server time, paid, released, appealed, cancelled.',
  machine: c2cOrderMachine,
  walks: c2cOrderWalks as unknown as MachineWalks,
};
