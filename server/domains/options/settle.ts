import type { Kysely } from 'kysely';
import { OPTION_CONTRACT_EVENT } from '../../../protocol/options';
import { type OptionTick, optionExpiryTs, optionPayout, optionResult } from '../../../protocol/rules/options';
import { toUnits } from '../../../protocol/rules/spot';
import { currencyScale, type Ledger } from '../../ledger';
import { instrumentBySymbol, pinTick } from '../../market';
import type { Database } from '../../platform/db/schema';
import { recordUserEvent } from '../../platform/realtime/user-events';
import type { EngineTick } from '../../trading';
import { type OptionContractRow, toWire } from './contracts';
import { optionLedgerIds } from './submit';

/**
 * How a contract moves, each step one transaction: a conditional update from the state it must be in (so a step run
 * twice, or by two processes, changes nothing the second time), its ledger postings (`ledger.within`), the pin of the
 * tick it used and the user's event. The result of a contract is written in exactly one place, `settleContract`, and
 * only from `optionResult` over recorded ticks (RULES "Options"; a test holds that).
 */

const payoutAccount = { platform: 'options_payout' } as const;

/** The entry tick: the contract runs from it until E = its time + the period. */
export async function enterContract(
  trx: Kysely<Database>,
  row: OptionContractRow,
  tick: EngineTick,
  now: number,
): Promise<boolean> {
  const updated = await trx
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
  const updated = await trx
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

/**
 * Settles a running contract from the recorded ticks after its entry up to its expiry (`ticks`: the caller passes
 * every recorded tick that may be its exit; the rule picks the last at or before E). A win pays the stake back with
 * stake × ratio from the payout account; a loss pays the stake to it; flat and refunded release the stake.
 */
export async function settleContract(
  trx: Kysely<Database>,
  ledger: Ledger,
  row: OptionContractRow,
  ticks: readonly { seq: number; ts: number; price: string }[],
  now: number,
): Promise<boolean> {
  const instrument = instrumentBySymbol(row.symbol);
  if (!instrument || row.entry_seq === null || row.entry_ts === null || row.entry_price === null) return false;
  const units = (price: string) => {
    const u = toUnits(price, instrument.priceScale);
    if (u === null) throw new Error(`recorded price ${price} of ${row.symbol} is not on its tick`);
    return u;
  };
  const byKey = new Map(ticks.map((t) => [`${t.seq}`, t]));
  const settlement = optionResult({
    direction: row.direction,
    entry: { seq: row.entry_seq, ts: row.entry_ts, price: units(row.entry_price) },
    seconds: row.seconds,
    ticks: ticks.map((t): OptionTick => ({ seq: t.seq, ts: t.ts, price: units(t.price) })),
  });
  const exit = settlement.exit ? byKey.get(`${settlement.exit.seq}`) : undefined;
  const scale = currencyScale(row.currency);
  const payout = Number(optionPayout(BigInt(row.stake), row.ratio, settlement.result, scale));
  const updated = await trx
    .updateTable('option_contracts')
    .set({
      state: settlement.result,
      exit_seq: exit?.seq ?? null,
      exit_ts: exit?.ts ?? null,
      exit_price: exit?.price ?? null,
      payout,
      settled_at: now,
      updated_at: now,
    })
    .where('id', '=', row.id)
    .where('state', '=', 'running')
    .returningAll()
    .executeTakeFirst();
  if (!updated) return false;
  const book = ledger.within(trx);
  const userId = row.user_id;
  if (settlement.result === 'lost') {
    await book.postHold({
      userId,
      requestId: optionLedgerIds.settle(row.id),
      holdId: row.hold_id,
      to: [{ owner: payoutAccount, amount: row.stake }],
    });
  } else {
    await book.voidHold({ userId, requestId: optionLedgerIds.settle(row.id), holdId: row.hold_id });
    const profit = payout - row.stake;
    if (profit > 0) {
      await book.credit({
        userId,
        requestId: optionLedgerIds.payout(row.id),
        kind: 'settlement',
        book: row.book,
        currency: row.currency,
        amount: profit,
        from: 'options_payout',
        to: 'option',
      });
    }
  }
  if (exit) await pinTick(trx, { symbol: row.symbol, ...exit }, `option:${row.id}`);
  await recordUserEvent(trx, { userId, kind: OPTION_CONTRACT_EVENT, data: toWire(updated), at: now });
  return true;
}
