import { c2cOrderMachine } from '../../../machines/c2c/order.machine';
import { type MachineGraph, machineGraph } from '../../../machines/graph';

/** The order machine as the order page draws it (machines/graph.ts). */
export const orderGraph = (): MachineGraph => machineGraph(c2cOrderMachine);
