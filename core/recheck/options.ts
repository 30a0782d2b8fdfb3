import type { OptionContract } from '../../protocol/options';
import type { ChainRecord, RecordedTick } from '../../protocol/price-record';
import {
  type OptionResult,
  type OptionTick,
  optionExpiryTs,
  optionPayout,
  optionResult,
} from '../../protocol/rules/options';
import { toUnits } from '../../protocol/rules/spot';
import { checkChain, checkTick, type RecordFetchers } from './record';

/**
 * The client's re-check of a settled option contract (DESIGN "Fair outcomes"), with the same rule code the server
 * settled it with (protocol/rules/options.ts) and the record's hash rules (protocol/rules/price-record.ts). The server
 * only supplies data; the fetchers are injected, so this is pure.
 *
 * How far it goes. market/chain/record returns one symbol's ticks of one batch (about a second), so the rule's
 * "exit = the LAST tick after entry and at or before E" cannot be proven from the exit's batch alone. It checks:
 * 1. the entry tick is in its batch as posted, and that batch's digests and hash hold and fold up to the published
 *    head; the tick before it (same batch, or asked for by seq − 1 while the record holds it) came at or before the
 *    acceptance, so the entry is the first recorded tick after it;
 * 2. the exit tick likewise (a refund has none), and E = entry time + period is the posted expiry;
 * 3. the tick after the deciding one (the exit; the entry when refunded): taken from the same batch when it holds
 *    one, else asked for by its sequence number (seq + 1) and checked the same way. When it is found and lies after
 *    E, every tick between is accounted for and the exit is proven the last one (`proof: 'next_tick'`); when the
 *    record no longer holds it (unpinned ticks age out after 3 days), the check says so (`proof: 'batch'`: no
 *    recorded tick of the symbol in the exit's batch lies after the exit and at or before E);
 * 4. optionResult over every tick it saw picks the posted exit and the posted result, and optionPayout gives the
 *    posted payout.
 */

export type OptionRecheckFailure =
  | 'not_sealed'
  | 'not_settled'
  | 'tick_missing'
  | 'tick_differs'
  | 'digest_differs'
  | 'chain_differs'
  | 'entry_differs'
  | 'exit_differs'
  | 'result_differs'
  | 'payout_differs';

/** How the exit was shown to be the last tick at or before E (see the module comment, point 3). */
export type ExitProof = 'next_tick' | 'batch';

export type OptionRecheckResult =
  | {
      ok: true;
      headId: number;
      headHash: string;
      entryBatchId: number;
      exitBatchId: number | null;
      proof: ExitProof;
      /** The first recorded tick after the deciding one, when the record still holds it. */
      nextTick: RecordedTick | null;
    }
  | { ok: false; reason: OptionRecheckFailure };

const failed = (reason: OptionRecheckFailure): OptionRecheckResult => ({ ok: false, reason });

const SETTLED: readonly OptionContract['state'][] = ['won', 'lost', 'flat', 'refunded'];

const decimals = (price: string) => price.split('.')[1]?.length ?? 0;

/**
 * Re-checks a settled contract. `quoteScale` is the stake currency's decimals (microtrade/seconds). Resolves to the
 * head it reached, or to the first check that failed; rejects only when a fetcher does (the record could not be
 * reached, so nothing was decided).
 */
export async function recheckOption(
  contract: OptionContract,
  quoteScale: number,
  fetchers: RecordFetchers,
): Promise<OptionRecheckResult> {
  const { entry, exit } = contract;
  if (!SETTLED.includes(contract.state) || !entry) return failed('not_settled');
  // The ticks must be the contract's own instrument: another instrument's record would prove nothing.
  if (entry.symbol !== contract.symbol || (exit && exit.symbol !== contract.symbol)) return failed('tick_differs');
  let expiry: number;
  try {
    expiry = optionExpiryTs(entry.ts, contract.seconds);
  } catch {
    return failed('exit_differs');
  }
  if (contract.expiry_ts !== expiry) return failed('exit_differs');
  // A refund has no exit; anything else must have one, and a refund must not.
  if ((contract.state === 'refunded') !== (exit === null)) return failed('exit_differs');

  const records: ChainRecord[] = [];
  const fetchChecked = async (tick: RecordedTick): Promise<ChainRecord | OptionRecheckFailure> => {
    const record = await fetchers.record(tick.symbol, tick.seq);
    if (record === null) return 'not_sealed';
    const problem = checkTick(tick, record);
    if (problem) return problem;
    records.push(record);
    return record;
  };

  const entryRecord = await fetchChecked(entry);
  if (typeof entryRecord === 'string') return failed(entryRecord);
  // The entry is the first recorded tick after acceptance: no earlier tick of its batch came after it.
  if (entry.ts <= contract.created_at) return failed('entry_differs');
  if (entryRecord.ticks.some((t) => t.seq < entry.seq && t.ts > contract.created_at)) return failed('entry_differs');
  // The tick before the entry (another batch when the entry opens its batch) must not lie after the acceptance.
  if (!entryRecord.ticks.some((t) => t.seq === entry.seq - 1)) {
    const before = await fetchers.record(entry.symbol, entry.seq - 1);
    const tick = before?.ticks.find((t) => t.seq === entry.seq - 1);
    if (before && tick) {
      const problem = checkTick(tick, before);
      if (problem) return failed(problem);
      records.push(before);
      if (tick.ts > contract.created_at) return failed('entry_differs');
    }
  }

  let exitRecord: ChainRecord | null = null;
  if (exit) {
    const r = await fetchChecked(exit);
    if (typeof r === 'string') return failed(r);
    exitRecord = r;
  }

  // The tick after the deciding one: from the batches at hand, else asked for by the next sequence number.
  const deciding = exit ?? entry;
  const seen = () => records.flatMap((r) => r.ticks);
  let nextTick =
    seen()
      .filter((t) => t.seq > deciding.seq)
      .sort((a, b) => a.seq - b.seq)[0] ?? null;
  if (!nextTick) {
    const record = await fetchers.record(deciding.symbol, deciding.seq + 1);
    const candidate = record?.ticks.find((t) => t.seq === deciding.seq + 1);
    if (record && candidate) {
      const problem = checkTick(candidate, record);
      if (problem) return failed(problem);
      records.push(record);
      nextTick = candidate;
    }
  }

  // Asked after the records, so the head is at least as new as every batch they came from.
  const head = await fetchers.head();
  let reached: { headId: number; headHash: string } | null = null;
  for (const id of new Set(records.map((r) => r.batch.id))) {
    const record = records.find((r) => r.batch.id === id) as ChainRecord;
    reached = await checkChain(record, head, fetchers);
    if (!reached) return failed('chain_differs');
  }
  if (!reached) return failed('chain_differs');

  // The rule over every tick seen (prices as units at one common scale: they are only compared).
  const ticks = [...new Map(seen().map((t) => [t.seq, t])).values()];
  const scale = Math.max(decimals(entry.price), ...ticks.map((t) => decimals(t.price)));
  const units = (t: RecordedTick): OptionTick | null => {
    const price = toUnits(t.price, scale);
    return price === null ? null : { seq: t.seq, ts: t.ts, price };
  };
  const entryUnits = units(entry);
  const tickUnits = ticks.map(units);
  if (!entryUnits || tickUnits.some((t) => t === null)) return failed('tick_differs');
  const settlement = optionResult({
    direction: contract.direction,
    entry: entryUnits,
    seconds: contract.seconds,
    ticks: tickUnits as OptionTick[],
  });
  if ((settlement.exit?.seq ?? null) !== (exit?.seq ?? null)) return failed('exit_differs');
  if (settlement.result !== contract.state) return failed('result_differs');

  const stake = toUnits(contract.stake, quoteScale);
  const posted = contract.payout === null ? null : toUnits(contract.payout, quoteScale);
  if (stake === null || posted === null) return failed('payout_differs');
  let payout: bigint;
  try {
    payout = optionPayout(stake, contract.ratio, settlement.result as OptionResult, quoteScale);
  } catch {
    return failed('payout_differs');
  }
  if (payout !== posted) return failed('payout_differs');

  return {
    ok: true,
    ...reached,
    entryBatchId: entryRecord.batch.id,
    exitBatchId: exitRecord?.batch.id ?? null,
    proof: nextTick !== null && nextTick.ts > expiry ? 'next_tick' : 'batch',
    nextTick,
  };
}
