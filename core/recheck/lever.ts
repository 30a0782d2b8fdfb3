import type { LeverPosition } from '../../protocol/lever';
import type { ChainRecord, RecordedTick } from '../../protocol/price-record';
import {
  afterParts,
  closeAmounts,
  closedNet,
  firesStop,
  initialMargin,
  isolatedLiquidationPrice,
  type LeverPositionUnits,
  type LeverTerms,
  pnlUnits,
  reachesLiquidation,
  splitPosition,
  tradeFee,
} from '../../protocol/rules/lever';
import { toUnits } from '../../protocol/rules/spot';
import { checkChain, checkTick, type RecordFetchers, type TickFailure } from './record';

/**
 * The client's re-check of a closed lever position (DESIGN "Fair outcomes") with the rule code the server closed it
 * with (protocol/rules/lever.ts) and the record's hash rules. The server only supplies data; fetchers are injected.
 *
 * It checks: both ticks (entry and exit) are in their batches as posted and chain up to the published head; a market
 * order's entry is the first recorded tick after acceptance (the tick before it came at or before); the margin and
 * open fee follow from the entry tick; the exit tick reaches the price that closed it (take-profit, stop-loss, or the
 * liquidation price recomputed from the entry and the margin; a cross liquidation names the crossing tick itself); and
 * the realised P&L, close fee and insurance follow from the exit tick, and the fees and net shown add up to them
 * (closedNet). It cannot prove that no EARLIER tick crossed a
 * take-profit or stop-loss, because when the owner set or moved them is not part of the record.
 *
 * Partial closes (RULES "Partial close"): a closed part re-checks like a close of its own lots: the same ticks and
 * checks, and its margin and open fee follow from its basis (the position just before it was split off) by the rules'
 * splitPosition, the basis's initial margin and open fee in turn from the entry tick and the lots of the parts closed
 * before (afterParts); the added margin of the basis is the owner's own act and taken as shown, like any added margin.
 * A position that had parts closed off re-checks with the initial margin and open fee the same replay leaves it.
 */

export type LeverRecheckFailure =
  | 'not_sealed'
  | TickFailure
  | 'entry_differs'
  | 'exit_differs'
  | 'not_closed'
  | 'margin_differs'
  | 'trigger_differs'
  | 'money_differs';

export type LeverRecheckResult =
  | { ok: true; headId: number; headHash: string; entryBatchId: number; exitBatchId: number }
  | { ok: false; reason: LeverRecheckFailure };

const failed = (reason: LeverRecheckFailure): LeverRecheckResult => ({ ok: false, reason });

/** The rule terms and units a wire position was opened under. */
function unitsOfWire(p: LeverPosition, quoteScale: number): LeverPositionUnits | null {
  const terms: LeverTerms = {
    contractSize: p.contract_size,
    mmr: p.mmr,
    feeRate: p.fee_rate,
    priceScale: decimals(p.entry_price ?? ''),
    quoteScale,
  };
  const entry = p.entry_price === null ? null : toUnits(p.entry_price, terms.priceScale);
  const initial = p.initial_margin === null ? null : toUnits(p.initial_margin, quoteScale);
  const added = toUnits(p.additional_margin, quoteScale);
  if (entry === null || initial === null || added === null) return null;
  return { side: p.direction, lots: BigInt(p.lots), entry, margin: initial + added, terms };
}

const decimals = (price: string) => price.split('.')[1]?.length ?? 0;

/**
 * Re-checks a closed position. `quoteScale` is USDT's decimals (lever/deal `scale`). Resolves to the head it
 * reached, or to the first check that failed; rejects only when a fetcher does (nothing was decided then).
 */
export async function recheckLever(
  p: LeverPosition,
  quoteScale: number,
  fetchers: RecordFetchers,
): Promise<LeverRecheckResult> {
  const { entry, exit } = p;
  if (p.phase !== 'closed' || !entry || !exit || !p.close_reason) return failed('not_closed');
  if (entry.symbol !== p.symbol || exit.symbol !== p.symbol) return failed('tick_differs');
  const units = unitsOfWire(p, quoteScale);
  if (!units) return failed('margin_differs');

  const records: ChainRecord[] = [];
  const fetchChecked = async (tick: RecordedTick): Promise<ChainRecord | LeverRecheckFailure> => {
    const record = await fetchers.record(tick.symbol, tick.seq);
    if (record === null) return 'not_sealed';
    const problem = checkTick(tick, record);
    if (problem) return problem as LeverRecheckFailure;
    records.push(record);
    return record;
  };
  const entryRecord = await fetchChecked(entry);
  if (typeof entryRecord === 'string') return failed(entryRecord);
  if (p.type === 'market') {
    // A market order opens at the first recorded tick after acceptance: none of its batch's earlier ticks, nor the
    // tick before it, lies after the acceptance.
    if (entry.ts <= p.created_at) return failed('entry_differs');
    if (entryRecord.ticks.some((t) => t.seq < entry.seq && t.ts > p.created_at)) return failed('entry_differs');
    if (!entryRecord.ticks.some((t) => t.seq === entry.seq - 1)) {
      const before = await fetchers.record(entry.symbol, entry.seq - 1);
      const tick = before?.ticks.find((t) => t.seq === entry.seq - 1);
      if (before && tick) {
        const problem = checkTick(tick, before);
        if (problem) return failed(problem as LeverRecheckFailure);
        records.push(before);
        if (tick.ts > p.created_at) return failed('entry_differs');
      }
    }
  } else if (p.limit_price !== null) {
    // A limit opens at a tick at or through its price.
    const limit = toUnits(p.limit_price, units.terms.priceScale);
    const crossed = limit !== null && (p.direction === 'long' ? units.entry <= limit : units.entry >= limit);
    if (!crossed) return failed('entry_differs');
  }
  const exitRecord = await fetchChecked(exit);
  if (typeof exitRecord === 'string') return failed(exitRecord);

  const head = await fetchers.head();
  let reached: { headId: number; headHash: string } | null = null;
  for (const record of records) {
    reached = await checkChain(record, head, fetchers);
    if (!reached) return failed('chain_differs');
  }
  if (!reached) return failed('chain_differs');

  // The margin and open fee follow from the entry tick. P&L and insurance are signed; toUnits reads plain decimals.
  const posted = (text: string | null) => {
    if (text === null) return null;
    const magnitude = toUnits(text.replace(/^-/, ''), quoteScale);
    return magnitude === null ? null : text.startsWith('-') ? -magnitude : magnitude;
  };
  const shares = expectedShares(p, units, posted);
  if (!shares) return failed('margin_differs');
  const { initial, openFee } = shares;
  if (posted(p.initial_margin) !== initial) return failed('margin_differs');

  // The exit reaches the price that closed it.
  const exitUnits = toUnits(exit.price, units.terms.priceScale);
  if (exitUnits === null) return failed('tick_differs');
  const price = (text: string | null) => (text === null ? null : toUnits(text, units.terms.priceScale));
  if (p.close_reason === 'liquidation' && p.margin_mode === 'isolated') {
    const lp = isolatedLiquidationPrice(units);
    if (lp === null || price(p.Liquidation_Price) !== lp || !reachesLiquidation(p.direction, lp, exitUnits)) {
      return failed('trigger_differs');
    }
  } else if (p.close_reason === 'take_profit' || p.close_reason === 'stop_loss') {
    const stop = price(p.close_reason === 'take_profit' ? p.profit_take_price : p.stop_loss_price);
    if (stop === null || !firesStop(p.direction, p.close_reason, stop, exitUnits)) return failed('trigger_differs');
  }

  // The money of the close follows from the exit tick. An isolated position can lose its margin at most; a cross
  // one's limit depends on the account's free balance then, so only P&L and the fee are checked for it.
  const pnl = pnlUnits(units, exitUnits);
  if (posted(p.realized_pnl) !== pnl) return failed('money_differs');
  const paidFees = posted(p.commission);
  if (p.margin_mode === 'isolated') {
    const amounts = closeAmounts(units, exitUnits, p.close_reason, units.margin);
    if (paidFees !== openFee + amounts.feePaid || posted(p.insurance) !== amounts.insurance) {
      return failed('money_differs');
    }
  } else if (
    paidFees === null ||
    paidFees < openFee ||
    paidFees > openFee + tradeFee(units.lots, exitUnits, units.terms)
  ) {
    return failed('money_differs');
  }
  // The result as shown: the open fee is the rule's, the two fees make up the commission, and the net is closedNet
  // of the posted amounts (a page that shows P&L, fees and net shows only figures this check has read).
  const closeFee = posted(p.close_fee);
  if (posted(p.open_fee) !== openFee || closeFee === null || paidFees !== openFee + closeFee) {
    return failed('money_differs');
  }
  const net = closedNet({ pnl, openFee, closeFee, insurance: posted(p.insurance) ?? 0n });
  if (posted(p.total_profit_or_loss) !== net) return failed('money_differs');
  return { ok: true, ...reached, entryBatchId: entryRecord.batch.id, exitBatchId: exitRecord.batch.id };
}

/**
 * The initial margin and open fee a closed row must show (quote units), from its entry tick and lots: the whole
 * position's at the entry when nothing was split off it; after parts, what afterParts leaves of the opened position;
 * for a part, its share (splitPosition) of its basis, whose initial margin and open fee are in turn the replay's and
 * whose lots must be the part's plus what it leaves. Null when the row's parts or basis do not add up.
 */
function expectedShares(
  p: LeverPosition,
  units: LeverPositionUnits,
  posted: (text: string | null) => bigint | null,
): { initial: bigint; openFee: bigint } | null {
  const opened = BigInt(p.opened_lots ?? p.lots);
  const terms = units.terms;
  const atOpen = {
    lots: opened,
    initialMargin: initialMargin(opened, units.entry, p.leverage, terms),
    addedMargin: 0n,
    openFee: tradeFee(opened, units.entry, terms),
  };
  const before = afterParts(atOpen, (p.earlier_parts ?? []).map(BigInt));
  if (!before) return null;
  const basis = p.part_basis ?? null;
  if (p.part_of === null || p.part_of === undefined) {
    if (basis !== null || before.lots !== units.lots) return null;
    return { initial: before.initialMargin, openFee: before.openFee };
  }
  // A part: closed by its owner, split off the basis the replay reaches.
  const added = basis === null ? null : posted(basis.additional_margin);
  if (basis === null || added === null || p.close_reason !== 'user' || BigInt(basis.lots) !== before.lots) return null;
  if (posted(basis.initial_margin) !== before.initialMargin || posted(basis.open_fee) !== before.openFee) return null;
  if (units.lots < 1n || units.lots >= before.lots) return null;
  const { part } = splitPosition({ ...before, addedMargin: added }, units.lots);
  if (posted(p.additional_margin) !== part.addedMargin) return null;
  return { initial: part.initialMargin, openFee: part.openFee };
}
