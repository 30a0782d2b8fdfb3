import type { AnyStateMachine } from 'xstate';
import { c2cOrderMachine } from './c2c/order.machine';
import { c2cOrderWalks } from './c2c/order.model';
import { ieoSubscriptionMachine } from './ieo/subscription.machine';
import { ieoSubscriptionWalks } from './ieo/subscription.model';
import { leverOrderMachine } from './lever/order.machine';
import { leverOrderWalks } from './lever/order.model';
import type { MachineWalks } from './model';
import { optionContractMachine } from './options/contract.machine';
import { optionContractWalks } from './options/contract.model';
import { spotOrderMachine } from './spot/order.machine';
import { spotOrderWalks } from './spot/order.model';

/**
 * Every order machine of the app, as QA looks them up (DESIGN "Who uses it"): its name, what it models, the machine,
 * and the walks its model-based tests take. `npm run machines` draws each one and lists its test paths under
 * docs/machines/ from this list; the support console's Machines screen and the order pages' "show order flow" read
 * those generated files (never the machines), so a machine added here is drawn, listed and shown in one place.
 */
export interface MachineEntry {
  /** File and URL name, e.g. `lever-order`. */
  id: string;
  /** The order page it drives, in the words of SPEC 2. */
  name: string;
  /** What it models, in English: written into docs/machines/<id>.paths.json, which the console's QA screen shows. */
  models: string;
  machine: AnyStateMachine;
  walks: MachineWalks;
}

/*
 * The walks are typed for their own machine; the registry holds them side by side, which TypeScript can only express
 * with the widest machine type (each pair is checked where it is made, in the model file beside the machine).
 */
const entry = (e: MachineEntry): MachineEntry => e;

export const MACHINES: readonly MachineEntry[] = [
  entry({
    id: 'spot-order',
    name: 'Spot order',
    models:
      'One spot order from the ticket to completed or cancelled: its entry tick, a resting limit, cancelling, and stale prices.',
    machine: spotOrderMachine,
    walks: spotOrderWalks as unknown as MachineWalks,
  }),
  entry({
    id: 'option-contract',
    name: 'Option contract',
    models:
      'One binary option from choosing to its result: the entry tick, the countdown on server time, settling, refunds.',
    machine: optionContractMachine,
    walks: optionContractWalks as unknown as MachineWalks,
  }),
  entry({
    id: 'lever-order',
    name: 'Lever position',
    models:
      'One lever order and its position through phases 0 to 4: waiting or pending, holding, closing, closed or liquidated, cancelled.',
    machine: leverOrderMachine,
    walks: leverOrderWalks as unknown as MachineWalks,
  }),
  entry({
    id: 'c2c-order',
    name: 'C2C order',
    models:
      'One C2C order for its buyer or merchant: the 30-minute payment window on server time, paid, released, appealed, cancelled.',
    machine: c2cOrderMachine,
    walks: c2cOrderWalks as unknown as MachineWalks,
  }),
  entry({
    id: 'ieo-subscription',
    name: 'IEO subscription',
    models:
      'One IEO subscription through its statuses: allotment, paying within the window, listing, locked, unlocked.',
    machine: ieoSubscriptionMachine,
    walks: ieoSubscriptionWalks as unknown as MachineWalks,
  }),
];

export function machineEntry(id: string): MachineEntry | undefined {
  return MACHINES.find((m) => m.id === id);
}
