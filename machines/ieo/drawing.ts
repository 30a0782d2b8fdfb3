import type { MachineEntry, MachineWalks } from '../model';
import { ieoSubscriptionMachine } from './subscription.machine';
import { ieoSubscriptionWalks } from './subscription.model';

/** How QA finds this machine (machines/registry.ts collects every product's drawing.ts). */
export const drawing: MachineEntry = {
  id: 'ieo-subscription',
  name: 'IEO subscription',
  models: 'One IEO subscription through its statuses: allotment, paying within the window, listing, locked, unlocked.',
  machine: ieoSubscriptionMachine,
  walks: ieoSubscriptionWalks as unknown as MachineWalks,
};
