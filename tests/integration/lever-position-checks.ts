import type { Kysely } from 'kysely';
import {
  type CloseReason,
  closeAmounts,
  firesStop,
  initialMargin,
  isolatedLiquidationPrice,
  type LeverPositionUnits,
  type LeverTerms,
  reachesLiquidation,
  tradeFee,
} from '../../protocol/rules/lever';
import { fromUnits, toUnits } from '../../protocol/rules/spot';
import { ENTRY_TICK_WAIT_MS } from '../../protocol/spot';
import { withLever } from '../../server/domains/lever';
import { readLeverSettings, termsFor } from '../../server/domains/lever/terms';
import { withLedger } from '../../server/ledger';
import { currencyScale } from '../../server/ledger/amounts';
import { Ledger } from '../../server/ledger/ledger';
import { withPriceRecord } from '../../server/market';
import type { DatabaseHandle } from '../../server/platform/db/connect';
import type { Database } from '../../server/platform/db/schema';
import type { BookFunding } from './crash-kit';
import { ledgerAndChainProblems } from './spot-checks';

/**
 * The lever checks of the lever crash test and the failover bench (tests/bench/failover.bench.ts), read from the
 * record alone: every position from its row, its ledger entries and holds, and the recorded ticks.
 */

export const positions = (db: Kysely<Database>) => withLever(db).selectFrom('lever_positions');

/** The terms in force per symbol (with the MMR the test set), as the rules take them. */
export async function readTerms(db: Kysely<Database>, symbols: readonly string[]): Promise<Map<string, LeverTerms>> {
  const settings = await readLeverSettings(db);
  const terms = new Map<string, LeverTerms>();
  for (const symbol of symbols) {
    const t = termsFor(settings, symbol);
    if (!t) throw new Error(`no lever terms for ${symbol}`);
    terms.set(symbol, t);
  }
  return terms;
}

export interface LeverCheck {
  problems: string[];
  /** Closed positions per close reason (and cancelled ones per cancel reason). */
  reasons: Record<string, number>;
  /** The most positions one tick closed. */
  crowd: number;
  /** The longest time from acceptance to the entry tick of an opened position (ms). */
  slowestEntry: number;
}

/** Which of a position's prices a tick reaches, strongest first (liquidation, stop-loss, take-profit). */
function reached(
  side: 'long' | 'short',
  prices: { lp: bigint | null; sl: bigint | null; tp: bigint | null },
  tick: bigint,
): CloseReason | undefined {
  if (prices.lp !== null && reachesLiquidation(side, prices.lp, tick)) return 'liquidation';
  if (prices.sl !== null && firesStop(side, 'stop_loss', prices.sl, tick)) return 'stop_loss';
  if (prices.tp !== null && firesStop(side, 'take_profit', prices.tp, tick)) return 'take_profit';
  return undefined;
}

/**
 * The whole-database checks, independent of the engine's code paths: every position from its row, its ledger
 * entries and holds, and the recorded ticks (price_ticks) read back here.
 */
export async function checkLeverPositions(
  handle: DatabaseHandle,
  funding: readonly BookFunding[],
): Promise<LeverCheck> {
  const db = handle.db;
  const problems: string[] = [];
  const reasons: Record<string, number> = {};
  const rows = await positions(db).selectAll().orderBy('id').execute();

  const entries = await withLedger(db)
    .selectFrom('ledger_entries')
    .select(['user_id', 'request_id'])
    .where('request_id', 'like', 'lever-close:%')
    .execute();
  const closeEntries = new Map<string, number>();
  for (const e of entries) {
    const key = `${e.user_id}/${e.request_id}`;
    closeEntries.set(key, (closeEntries.get(key) ?? 0) + 1);
  }
  const holds = new Map(
    (await withLedger(db).selectFrom('ledger_holds').select(['id', 'state']).execute()).map((h) => [h.id, h.state]),
  );
  const pins = new Set(
    (await withPriceRecord(db).selectFrom('price_pins').select(['symbol', 'seq', 'owner']).execute()).map(
      (p) => `${p.owner}/${p.symbol}/${p.seq}`,
    ),
  );
  const ticks = new Map<string, { seq: number; ts: number; price: string }[]>();
  for (const symbol of new Set(rows.map((r) => r.symbol))) {
    ticks.set(
      symbol,
      await withPriceRecord(db)
        .selectFrom('price_ticks')
        .select(['seq', 'ts', 'price'])
        .where('symbol', '=', symbol)
        .orderBy('ts')
        .orderBy('seq')
        .execute(),
    );
  }
  // What each account's positions took from it: open fees and what the closes moved.
  const moved = new Map<string, bigint>();
  const closedAt = new Map<string, number>();
  let slowestEntry = 0;

  for (const row of rows) {
    const name = `position ${row.id} (${row.side} ${row.lots} ${row.symbol}, ${row.close_reason ?? row.cancel_reason})`;
    const closeCount = closeEntries.get(`${row.user_id}/lever-close:${row.id}`) ?? 0;
    const reason = row.phase === 'closed' ? (row.close_reason ?? 'none') : `cancelled:${row.cancel_reason}`;
    reasons[reason] = (reasons[reason] ?? 0) + 1;
    if (row.reserve_hold_id !== null && holds.get(row.reserve_hold_id) !== 'voided') {
      problems.push(`${name}: reserve hold ${holds.get(row.reserve_hold_id)}`);
    }
    if (row.phase === 'cancelled') {
      // RULES "No tick, no trade": cancelled for want of a tick only if the record has none within the wait.
      const entryTick = (ticks.get(row.symbol) ?? []).find((t) => t.ts > row.accepted_at);
      if (row.cancel_reason === 'no_tick' && entryTick && entryTick.ts - row.accepted_at <= ENTRY_TICK_WAIT_MS) {
        problems.push(
          `${name}: cancelled, but tick ${entryTick.seq} came ${entryTick.ts - row.accepted_at} ms after acceptance`,
        );
      }
      if (closeCount !== 0) problems.push(`${name}: cancelled with ${closeCount} close entries`);
      if (row.margin_hold_id !== null) problems.push(`${name}: cancelled with a margin hold`);
      continue;
    }
    if (row.phase !== 'closed') {
      problems.push(`${name}: still ${row.phase}`);
      continue;
    }
    if (closeCount !== 1) problems.push(`${name}: ${closeCount} close entries, not one`);
    if (row.margin_hold_id === null || holds.get(row.margin_hold_id) !== 'voided') {
      problems.push(`${name}: margin hold ${row.margin_hold_id === null ? 'missing' : holds.get(row.margin_hold_id)}`);
    }
    const series = ticks.get(row.symbol) ?? [];
    const scale = row.price_scale;
    const units = (text: string) => toUnits(text, scale) ?? 0n;
    if (row.entry_seq === null || row.entry_price === null || row.margin === null || row.exit_seq === null) {
      problems.push(`${name}: closed without an entry or exit`);
      continue;
    }
    // The entry: the first recorded tick after acceptance, recorded as stored and pinned.
    const entryTick = series.find((t) => t.ts > row.accepted_at);
    if (entryTick?.seq !== row.entry_seq || entryTick.price !== row.entry_price || entryTick.ts !== row.entry_ts) {
      problems.push(`${name}: entry tick ${row.entry_seq}, the first recorded after acceptance is ${entryTick?.seq}`);
    }
    if (!pins.has(`lever:${row.id}/${row.symbol}/${row.entry_seq}`)) problems.push(`${name}: entry tick not pinned`);
    slowestEntry = Math.max(slowestEntry, (row.entry_ts ?? 0) - row.accepted_at);
    const t: LeverTerms = {
      contractSize: row.contract_size,
      mmr: row.mmr,
      feeRate: row.fee_rate,
      priceScale: scale,
      quoteScale: currencyScale('USDT'),
    };
    const lots = BigInt(row.lots);
    const entry = units(row.entry_price);
    const margin = initialMargin(lots, entry, row.leverage, t);
    const position: LeverPositionUnits = {
      side: row.side,
      lots,
      entry,
      margin: margin + BigInt(row.added_margin),
      terms: t,
    };
    const lp = isolatedLiquidationPrice(position);
    if (BigInt(row.margin) !== margin) problems.push(`${name}: margin ${row.margin}, the rule gives ${margin}`);
    if (row.open_fee === null || BigInt(row.open_fee) !== tradeFee(lots, entry, t)) {
      problems.push(`${name}: open fee ${row.open_fee}, the rule gives ${tradeFee(lots, entry, t)}`);
    }
    if (row.liq_price !== (lp === null ? null : fromUnits(lp, scale))) {
      problems.push(`${name}: liquidation price ${row.liq_price}, the rule gives ${lp}`);
    }
    // The close: the first recorded tick after the entry that reaches one of its prices, for the strongest reason.
    const prices = {
      lp,
      sl: row.sl_price === null ? null : units(row.sl_price),
      tp: row.tp_price === null ? null : units(row.tp_price),
    };
    let expected: { seq: number; ts: number; price: string; reason: CloseReason } | undefined;
    for (const tick of series) {
      if (tick.seq <= row.entry_seq) continue;
      const why = reached(row.side, prices, units(tick.price));
      if (why) {
        expected = { ...tick, reason: why };
        break;
      }
    }
    const exit = series.find((tick) => tick.seq === row.exit_seq);
    if (!exit || exit.ts !== row.exit_ts || exit.price !== row.exit_price) {
      problems.push(`${name}: exit tick ${row.exit_seq} ${row.exit_price} is not in the record as stored`);
      continue;
    }
    if (!pins.has(`lever:${row.id}/${row.symbol}/${row.exit_seq}`)) problems.push(`${name}: exit tick not pinned`);
    if (row.close_reason === 'liquidation' && (lp === null || !reachesLiquidation(row.side, lp, units(exit.price)))) {
      problems.push(
        `${name}: liquidated at ${exit.price} (tick ${exit.seq}), its liquidation price is ${row.liq_price}`,
      );
    }
    if (row.close_reason === 'user') {
      problems.push(`${name}: closed by the user, which nobody asked`);
    } else if (expected?.seq !== row.exit_seq || expected.reason !== row.close_reason) {
      problems.push(
        `${name}: closed at tick ${row.exit_seq} (${row.exit_price}) for ${row.close_reason}; the first recorded tick ` +
          `reaching its prices (lp ${row.liq_price}, sl ${row.sl_price}, tp ${row.tp_price}) after its entry ` +
          `${row.entry_seq} (${row.entry_price}) is ${expected ? `${expected.seq} (${expected.price}) for ${expected.reason}` : 'none'}`,
      );
    }
    // The money of the close, by the rule (an isolated position can lose its margin and no more).
    const amounts = closeAmounts(
      position,
      units(exit.price),
      (row.close_reason ?? 'user') as CloseReason,
      position.margin,
    );
    const stored = { pnl: row.realized_pnl, fee: row.close_fee, insurance: row.insurance };
    const rule = { pnl: Number(amounts.pnl), fee: Number(amounts.feePaid), insurance: Number(amounts.insurance) };
    if (JSON.stringify(stored) !== JSON.stringify(rule)) {
      problems.push(`${name}: close money ${JSON.stringify(stored)}, the rule gives ${JSON.stringify(rule)}`);
    }
    const account = `${row.user_id}/${row.book}`;
    moved.set(account, (moved.get(account) ?? 0n) - BigInt(row.open_fee ?? 0) + amounts.userDelta);
    const at = `${row.symbol}/${row.exit_seq}`;
    closedAt.set(at, (closedAt.get(at) ?? 0) + 1);
  }

  // Every contract account: its funding plus what its positions moved, nothing held.
  const ledger = new Ledger(handle);
  for (const f of funding) {
    const balance = (await ledger.balances(f.userId, f.book)).find(
      (b) => b.type === 'contract' && b.currency === 'USDT',
    );
    const want = BigInt(f.units) + (moved.get(`${f.userId}/${f.book}`) ?? 0n);
    if (BigInt(balance?.balance ?? 0) !== want || (balance?.held ?? 0) !== 0) {
      problems.push(
        `user ${f.userId} ${f.book} contract: balance ${balance?.balance} held ${balance?.held}, expected ${want} held 0`,
      );
    }
  }
  problems.push(...(await ledgerAndChainProblems(db)));
  return { problems, reasons, crowd: Math.max(0, ...closedAt.values()), slowestEntry };
}
