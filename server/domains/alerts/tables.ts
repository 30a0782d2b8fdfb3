import type { Generated, Kysely, Selectable } from 'kysely';
import type { AlertSide, AlertState } from '../../../protocol/alerts';
import type { Database } from '../../platform/db/schema';

/** One price alert (migration 0028). */
export interface PriceAlertsTable {
  id: Generated<number>;
  user_id: number;
  symbol: string;
  /** The instrument's quote currency when the alert was set (what its price is in). */
  quote: string;
  side: AlertSide;
  /** Exact decimal text on the instrument's step. */
  price: string;
  state: AlertState;
  created_at: number;
  /** Checked up to this recorded tick (time, sequence); a null sequence: every tick after `checked_ts`. */
  checked_ts: number;
  checked_seq: number | null;
  /** Server time when the job fired it. */
  fired_at: number | null;
  fired_seq: number | null;
  fired_ts: number | null;
  fired_price: string | null;
  fired_batch: number | null;
  fired_hash: string | null;
}

export type PriceAlertRow = Selectable<PriceAlertsTable>;

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type AlertsTables = {
  price_alerts: PriceAlertsTable;
};

export type AlertsDb = Kysely<Database & AlertsTables>;

/** The app's database (or a transaction) seen with this domain's tables, typed here beside the code that owns them. */
export const withAlerts = (db: Kysely<Database>): AlertsDb => db.withTables<AlertsTables>();
