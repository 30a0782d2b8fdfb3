import type { MachineEntry, MachineWalks } from '../../model';
import { leverCloseAllMachine } from './closeAll.machine';
import { closeAllWalks } from './closeAll.model';

/** How QA finds this machine (machines/registry.ts collects every product's drawing.ts). */
export const drawing: MachineEntry = {
  id: 'lever-close-all',
  name: 'Lever close-all',
  models:
    "Closing every holding position of a lever book at once: the confirmation sheet, the server's answer (how many went into closing, or its refusal), stale prices blocking it.",
  machine: leverCloseAllMachine,
  walks: closeAllWalks as unknown as MachineWalks,
};
