import type { Generated, Kysely } from 'kysely';
import type { TracedMachine } from '../../../protocol/inspection';
import type { Database } from '../../platform/db/schema';

/** One reported actor step (migration 0024). Times are milliseconds; `states` is the active state ids, space-separated. */
export interface ActorTracesTable {
  id: Generated<number>;
  user_id: number;
  machine: TracedMachine;
  order_id: number;
  actor: string;
  seq: number;
  at: number;
  event: string;
  states: string;
  received_at: number;
}

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type InspectionTables = {
  actor_traces: ActorTracesTable;
};

/** The app's database seen with this module's table (typed here, beside the module that owns it). */
export const withInspection = (db: Kysely<Database>) => db.withTables<InspectionTables>();
