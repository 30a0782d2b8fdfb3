import type { Kysely, Selectable } from 'kysely';
import { OPEN_OPTION_STATES, type OptionContract, type OptionContractPage } from '../../../protocol/options';
import { formatAmount } from '../../ledger';
import { cursorPage } from '../../platform/db/paging';
import type { Database } from '../../platform/db/schema';
import type { OptionContractsTable } from './tables';
import { withOptions } from './tables';

export type OptionContractRow = Selectable<OptionContractsTable>;

/** A contract as its owner sees it (protocol/options.ts `optionContract`). */
export function toWire(row: OptionContractRow): OptionContract {
  const tick = (seq: number | null, ts: number | null, price: string | null) =>
    seq === null || ts === null || price === null ? null : { symbol: row.symbol, seq, ts, price };
  return {
    id: row.id,
    symbol: row.symbol,
    direction: row.direction,
    seconds: row.seconds,
    ratio: row.ratio,
    currency: row.currency,
    stake: formatAmount(row.currency, row.stake),
    account: row.book,
    state: row.state,
    entry: tick(row.entry_seq, row.entry_ts, row.entry_price),
    expiry_ts: row.expiry_ts,
    exit: tick(row.exit_seq, row.exit_ts, row.exit_price),
    payout: row.payout === null ? null : formatAmount(row.currency, row.payout),
    request_id: row.request_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    settled_at: row.settled_at,
  };
}

export async function contractOf(
  db: Kysely<Database>,
  userId: number,
  id: number,
): Promise<OptionContractRow | undefined> {
  return withOptions(db)
    .selectFrom('option_contracts')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function openContracts(db: Kysely<Database>, userId: number): Promise<OptionContract[]> {
  const rows = await withOptions(db)
    .selectFrom('option_contracts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('state', 'in', OPEN_OPTION_STATES)
    .orderBy('id', 'desc')
    .limit(500)
    .execute();
  return rows.map(toWire);
}

export async function listContracts(
  db: Kysely<Database>,
  userId: number,
  query: { list: 'open' | 'settled'; book: 'real' | 'simulator'; limit: number; beforeId?: number | undefined },
): Promise<OptionContractPage> {
  let q = withOptions(db)
    .selectFrom('option_contracts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('book', '=', query.book);
  q =
    query.list === 'open' ? q.where('state', 'in', OPEN_OPTION_STATES) : q.where('state', 'not in', OPEN_OPTION_STATES);
  if (query.beforeId !== undefined) q = q.where('id', '<', query.beforeId);
  const rows = await q
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .execute();
  const { page, next_before_id } = cursorPage(rows, query.limit);
  return { contracts: page.map(toWire), next_before_id };
}
