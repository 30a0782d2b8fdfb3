import { type Kysely, sql } from 'kysely';
import { OPTION_CONTRACT_EVENT } from '../../../protocol/options';
import {
  type OptionResult,
  type OptionTick,
  optionExpiryTs,
  optionPayout,
  optionResult,
} from '../../../protocol/rules/options';
import { toUnits } from '../../../protocol/rules/spot';
import { type BatchRequest, currencyScale, type Ledger } from '../../ledger';
import { instrumentBySymbol, pinTick, pinTicks } from '../../market';
import type { Database } from '../../platform/db/schema';
import { recordUserEvent, recordUserEvents } from '../../platform/realtime/user-events';
import type { EngineTick } from '../../trading';
import { type OptionContractRow, toWire } from './contracts';
import { optionLedgerIds } from './submit';
import { withOptions } from './tables';

/**
 * How a contract moves, each step one transaction: a conditional update from the state it must be in (so a step run
 * twice, or by two processes, changes nothing the second time), its ledger postings (`ledger.within`), the pin of the
 * tick it used and the user's event. The result of a contract is computed in exactly one place, `decide`, only by
 * `optionResult` over recorded ticks, and written only by `settleContracts` (RULES "Options"; a test holds that).
 */

const payoutAccount = { platform: 'options_payout' } as const;

/** The entry tick: the contract runs from it until E = its time + the period. */
export async function enterContract(
  trx: Kysely<Database>,
  row: OptionContractRow,
  tick: EngineTick,
  now: number,
): Promise<boolean> {
  const updated = await withOptions(trx)
    .updateTable('option_contracts')
    .set({
      state: 'running',
      entry_seq: tick.seq,
      entry_ts: tick.ts,
      entry_price: tick.price,
      expiry_ts: optionExpiryTs(tick.ts, row.seconds),
      updated_at: now,
    })
    .where('id', '=', row.id)
    .where('state', '=', 'waiting')
    .returningAll()
    .executeTakeFirst();
  if (!updated) return false;
  await pinTick(trx, { symbol: tick.symbol, seq: tick.seq, ts: tick.ts, price: tick.price }, `option:${row.id}`);
  await recordUserEvent(trx, { userId: row.user_id, kind: OPTION_CONTRACT_EVENT, data: toWire(updated), at: now });
  return true;
}

/** No entry tick within the wait (RULES "No tick, no trade"): cancelled, the stake released. */
export async function cancelContract(
  trx: Kysely<Database>,
  ledger: Ledger,
  row: OptionContractRow,
  now: number,
): Promise<boolean> {
  const updated = await withOptions(trx)
    .updateTable('option_contracts')
    .set({ state: 'cancelled', payout: row.stake, settled_at: now, updated_at: now })
    .where('id', '=', row.id)
    .where('state', '=', 'waiting')
    .returningAll()
    .executeTakeFirst();
  if (!updated) return false;
  await ledger
    .within(trx)
    .voidHold({ userId: row.user_id, requestId: optionLedgerIds.settle(row.id), holdId: row.hold_id });
  await recordUserEvent(trx, { userId: row.user_id, kind: OPTION_CONTRACT_EVENT, data: toWire(updated), at: now });
  return true;
}

/** A recorded tick as the settlement reads it from the price record. */
export interface RecordedExit {
  seq: number;
  ts: number;
  price: string;
}

/** What the rule decided for one contract. */
interface Decision {
  row: OptionContractRow;
  result: OptionResult;
  exit: RecordedExit | null;
  payout: number;
}

/**
 * The rule's decision for one running contract, from the recorded ticks after its entry up to its expiry (`ticks`:
 * every recorded tick that may be its exit; the rule picks the last at or before E). This is the only place a
 * result is computed, and only `optionResult` computes it.
 */
function decide(row: OptionContractRow, ticks: readonly RecordedExit[]): Decision | null {
  const instrument = instrumentBySymbol(row.symbol);
  if (!instrument || row.entry_seq === null || row.entry_ts === null || row.entry_price === null) return null;
  const units = (price: string) => {
    const u = toUnits(price, instrument.priceScale);
    if (u === null) throw new Error(`recorded price ${price} of ${row.symbol} is not on its tick`);
    return u;
  };
  const settlement = optionResult({
    direction: row.direction,
    entry: { seq: row.entry_seq, ts: row.entry_ts, price: units(row.entry_price) },
    seconds: row.seconds,
    ticks: ticks.map((t): OptionTick => ({ seq: t.seq, ts: t.ts, price: units(t.price) })),
  });
  const exit = settlement.exit ? (ticks.find((t) => t.seq === settlement.exit?.seq) ?? null) : null;
  const payout = Number(optionPayout(BigInt(row.stake), row.ratio, settlement.result, currencyScale(row.currency)));
  return { row, result: settlement.result, exit, payout };
}

/**
 * The ledger requests of a settlement: a loss pays the held stake to the payout account; otherwise the stake is
 * released, and a win adds stake × ratio from the payout account (both in the contract's own book).
 */
function settlementRequests({ row, result, payout }: Decision): BatchRequest[] {
  const userId = row.user_id;
  if (result === 'lost') {
    return [
      {
        op: 'postHold',
        userId,
        requestId: optionLedgerIds.settle(row.id),
        holdId: row.hold_id,
        to: [{ owner: payoutAccount, amount: row.stake }],
      },
    ];
  }
  const release: BatchRequest = {
    op: 'voidHold',
    userId,
    requestId: optionLedgerIds.settle(row.id),
    holdId: row.hold_id,
  };
  const profit = payout - row.stake;
  if (profit <= 0) return [release];
  return [
    release,
    {
      op: 'post',
      userId,
      requestId: optionLedgerIds.payout(row.id),
      kind: 'settlement',
      book: row.book,
      legs: [
        { owner: payoutAccount, currency: row.currency, amount: -profit },
        { owner: { userId, type: 'option' }, currency: row.currency, amount: profit },
      ],
    },
  ];
}

/** Rows per UPDATE: each row adds a few CASE terms, kept well under the databases' parameter limits. */
const UPDATE_ROWS = 200;

/** One value per contract id in one expression, so one UPDATE writes each contract's own figures. */
const cases = (pairs: ReadonlyArray<readonly [number, string | number | null]>) =>
  sql`case id ${sql.join(
    pairs.map(([id, value]) => sql`when ${id} then ${value}`),
    sql` `,
  )} end`;
const caseText = (pairs: ReadonlyArray<readonly [number, string | null]>) => sql<string | null>`${cases(pairs)}`;
/** Numbers are cast: PostgreSQL reads untyped parameters in a CASE as text. */
const caseBigint = (pairs: ReadonlyArray<readonly [number, number | null]>) =>
  sql<number | null>`cast(${cases(pairs)} as bigint)`;

/**
 * Settles running contracts (one, or the many that expire together) in the caller's transaction: one conditional
 * UPDATE per chunk writes each contract's result, exit tick and payout from the rule's decision (`state = 'running'`:
 * a contract settled before, by this or another process, is left alone), then the ledger requests of the ones that
 * moved in one batch, the pins of their exit ticks and their users' events. Returns the ids settled now.
 */
export async function settleContracts(
  trx: Kysely<Database>,
  ledger: Ledger,
  items: ReadonlyArray<{ row: OptionContractRow; ticks: readonly RecordedExit[] }>,
  now: number,
): Promise<Set<number>> {
  const decisions = items.map((i) => decide(i.row, i.ticks)).filter((d): d is Decision => d !== null);
  const moved = new Map<number, OptionContractRow>();
  for (let k = 0; k < decisions.length; k += UPDATE_ROWS) {
    const chunk = decisions.slice(k, k + UPDATE_ROWS);
    const rows = await withOptions(trx)
      .updateTable('option_contracts')
      .set({
        state: caseText(chunk.map((d) => [d.row.id, d.result])) as unknown as OptionResult,
        exit_seq: caseBigint(chunk.map((d) => [d.row.id, d.exit?.seq ?? null])),
        exit_ts: caseBigint(chunk.map((d) => [d.row.id, d.exit?.ts ?? null])),
        exit_price: caseText(chunk.map((d) => [d.row.id, d.exit?.price ?? null])),
        payout: caseBigint(chunk.map((d) => [d.row.id, d.payout])),
        settled_at: now,
        updated_at: now,
      })
      .where(
        'id',
        'in',
        chunk.map((d) => d.row.id),
      )
      .where('state', '=', 'running')
      .returningAll()
      .execute();
    for (const row of rows) moved.set(row.id, row);
  }
  // RETURNING has no defined order: the input order decides, as one by one would.
  const done = decisions.filter((d) => moved.has(d.row.id));
  if (done.length === 0) return new Set();
  await ledger.within(trx).settleBatch(done.flatMap(settlementRequests));
  const byExit = new Map<string, { tick: RecordedExit & { symbol: string }; owners: string[] }>();
  for (const d of done) {
    if (!d.exit) continue;
    const key = `${d.row.symbol}|${d.exit.seq}`;
    const group = byExit.get(key) ?? { tick: { symbol: d.row.symbol, ...d.exit }, owners: [] };
    group.owners.push(`option:${d.row.id}`);
    byExit.set(key, group);
  }
  for (const { tick, owners } of byExit.values()) await pinTicks(trx, tick, owners);
  await recordUserEvents(
    trx,
    done.map((d) => ({
      userId: d.row.user_id,
      kind: OPTION_CONTRACT_EVENT,
      data: toWire(moved.get(d.row.id) ?? d.row),
      at: now,
    })),
  );
  return new Set(done.map((d) => d.row.id));
}
