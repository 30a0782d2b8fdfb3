import type { MachineEntry, MachineWalks } from '../model';
import { optionContractMachine } from './contract.machine';
import { optionContractWalks } from './contract.model';

/** How QA finds this machine (machines/registry.ts collects every product's drawing.ts). */
export const drawing: MachineEntry = {
  id: 'option-contract',
  name: 'Option contract',
  models:
    'One binary option from choosing to its result: the entry tick, the countdown on server time, settling, refunds.',
  machine: optionContractMachine,
  walks: optionContractWalks as unknown as MachineWalks,
};
