/** The public surface of this module: other code imports it only through this file. */

export { inspectionHandlers } from './calls';
export { inspectionConsoleSection } from './console';
export { inspectionDomain } from './domain';
export * from './migrations/0024_inspection';
export { type InspectionTables, withInspection } from './tables';
export {
  type InspectionServices,
  orderTrace,
  pruneTraces,
  pruneTracesJob,
  recordTrace,
  tracedOrders,
} from './traces';
