import { type MachineGraph, machineGraph } from '../../../machines/graph';
import { ieoSubscriptionMachine, type SubscriptionStep } from '../../../machines/ieo/subscription.machine';

/** The subscription machine as the order page draws it (machines/graph.ts). */
export const subscriptionGraph = (): MachineGraph => machineGraph(ieoSubscriptionMachine);

export const isStep = (state: string): state is SubscriptionStep => state !== 'routing';
