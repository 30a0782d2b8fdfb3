import { type AlertSide, FIRED_ALERTS_LISTED, MAX_ACTIVE_ALERTS, type PriceAlert } from '../../../protocol/alerts';
import { fromUnits, toUnits } from '../../../protocol/rules/spot';
import type { DatabaseHandle } from '../../platform/db/connect';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { type PriceAlertRow, withAlerts } from './tables';

/** The instrument of a symbol as the market serves it (its price step), or undefined when it serves none. */
export type InstrumentOf = (symbol: string) => { priceScale: number; quote: string } | undefined;

export interface AlertServices {
  database: DatabaseHandle;
  now: () => number;
  instrument: InstrumentOf;
}

export interface NewAlert {
  symbol: string;
  side: AlertSide;
  price: string | undefined;
}

/** A row as the calls, the topic and the user event show it. */
export function alertOf(row: PriceAlertRow): PriceAlert {
  const fired =
    row.state === 'fired' && row.fired_seq !== null && row.fired_ts !== null && row.fired_price !== null
      ? {
          seq: Number(row.fired_seq),
          ts: Number(row.fired_ts),
          price: row.fired_price,
          batch_id: row.fired_batch === null ? null : Number(row.fired_batch),
          hash: row.fired_hash,
        }
      : null;
  return {
    id: row.id,
    symbol: row.symbol,
    quote: row.quote,
    side: row.side,
    price: row.price,
    state: row.state,
    created_at: Number(row.created_at),
    fired,
  };
}

/** The price as exact text on the instrument's step, or the refusal that names what is wrong with it. */
function priceOnStep(price: string | undefined, priceScale: number): string {
  if (price === undefined) throw new BusinessError('alertPriceRequired', { field: 'price' });
  if (!/^\d+(\.\d+)?$/.test(price)) throw new BusinessError('alertPriceInvalid', { field: 'price' });
  const units = toUnits(price, priceScale);
  if (units === null) throw new BusinessError('alertPriceStep', { field: 'price' });
  if (units <= 0n) throw new BusinessError('alertPriceInvalid', { field: 'price' });
  return fromUnits(units, priceScale);
}

/**
 * alerts/create: a new active alert, checked from the first recorded tick after now (RULES "Price alerts"). Either
 * side of the current price is accepted: on the wrong side it fires on the next tick, as the rule says. The count of
 * active alerts is read under the user's row lock (PostgreSQL) or SQLite's write lock, so two parallel creates
 * cannot pass the limit together.
 */
export async function createAlert(s: AlertServices, userId: number, input: NewAlert): Promise<PriceAlert> {
  const instrument = s.instrument(input.symbol);
  if (!instrument) throw new BusinessError('alertInstrumentUnknown', { field: 'symbol' });
  const price = priceOnStep(input.price, instrument.priceScale);
  const row = await writeTransaction(s.database, async (trx) => {
    if (s.database.kind === 'postgres') {
      await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    }
    const a = withAlerts(trx);
    const { n } = await a
      .selectFrom('price_alerts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('state', '=', 'active')
      .executeTakeFirstOrThrow();
    if (Number(n) >= MAX_ACTIVE_ALERTS) throw new BusinessError('alertLimitReached');
    const at = s.now();
    return a
      .insertInto('price_alerts')
      .values({
        user_id: userId,
        symbol: input.symbol,
        quote: instrument.quote,
        side: input.side,
        price,
        state: 'active',
        created_at: at,
        checked_ts: at,
        checked_seq: null,
        fired_at: null,
        fired_seq: null,
        fired_ts: null,
        fired_price: null,
        fired_batch: null,
        fired_hash: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return alertOf(row);
}

/** alerts/list: every active alert of the user, then the newest fired ones; newest first in each part. */
export async function listAlerts(s: Pick<AlertServices, 'database'>, userId: number): Promise<PriceAlert[]> {
  const a = withAlerts(s.database.db);
  const active = await a
    .selectFrom('price_alerts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('state', '=', 'active')
    .orderBy('id', 'desc')
    .execute();
  const fired = await a
    .selectFrom('price_alerts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('state', '=', 'fired')
    .orderBy('fired_at', 'desc')
    .orderBy('id', 'desc')
    .limit(FIRED_ALERTS_LISTED)
    .execute();
  return [...active, ...fired].map(alertOf);
}

/**
 * alerts/delete: removes one of the user's own alerts, active or fired. Another user's alert is "not found", as one
 * that never existed: an id says nothing about other users. Deleting an active alert while the job fires it is
 * decided by the database: either the delete comes first (nothing fires) or the alert fired and is deleted after.
 */
export async function deleteAlert(s: Pick<AlertServices, 'database'>, userId: number, id: number): Promise<void> {
  const result = await withAlerts(s.database.db)
    .deleteFrom('price_alerts')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new BusinessError('alertNotFound', { field: 'id' });
}
