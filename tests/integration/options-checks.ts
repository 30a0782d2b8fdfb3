import type { Kysely } from 'kysely';
import { OPTION_CONTRACT_EVENT, type OptionState } from '../../protocol/options';
import { type OptionTick, optionExpiryTs, optionPayout, optionResult } from '../../protocol/rules/options';
import { toUnits } from '../../protocol/rules/spot';
import { withOptions } from '../../server/domains/options';
import { withLedger } from '../../server/ledger';
import { currencyScale } from '../../server/ledger/amounts';
import { Ledger } from '../../server/ledger/ledger';
import { withPriceRecord } from '../../server/market';
import { instrumentBySymbol } from '../../server/market/instruments';
import type { DatabaseHandle } from '../../server/platform/db/connect';
import type { Database } from '../../server/platform/db/schema';
import { ledgerAndChainProblems } from './spot-checks';

/**
 * The whole-database checks of the options crash and cluster tests. For every contract:
 * - exactly one settlement: a final state with exactly one `option-settle:<id>` ledger entry, one
 *   `option-payout:<id>` entry for a win and none otherwise, its stake hold posted (lost) or voided (the others),
 *   and exactly one user event carrying the final state; an open contract has none of these and its hold open;
 * - the entry tick is the first recorded tick after acceptance, recorded as stored and pinned, E = entry + period;
 * - result, exit tick and payout are what protocol/rules/options.ts gives over the recorded ticks after the entry
 *   up to E (read back from price_ticks, independently of the engine's query);
 * - every option account is its funding plus the payouts minus the stakes, holding exactly the open stakes;
 * - the ledger check and the price chain check are clean.
 * Returns the problems (empty when everything is right), so a failure names every contract that is wrong.
 */

export const FINAL_OPTION_STATES: readonly OptionState[] = ['won', 'lost', 'flat', 'refunded', 'cancelled'];

export interface OptionFunding {
  userId: number;
  book: 'real' | 'simulator';
  /** USDT minor units in the option account before any contract. */
  units: number;
}

export interface OptionCheck {
  problems: string[];
  states: Record<string, number>;
  /** settled_at − expiry_ts of every contract settled from its ticks (ms of the app's clock). */
  lags: number[];
}

type Row = Awaited<ReturnType<typeof contracts>>[number];

function contracts(db: Kysely<Database>) {
  return withOptions(db).selectFrom('option_contracts').selectAll().orderBy('id').execute();
}

export async function checkOptionContracts(
  handle: DatabaseHandle,
  funding: readonly OptionFunding[],
): Promise<OptionCheck> {
  const db = handle.db;
  const problems: string[] = [];
  const rows = await contracts(db);
  const states: Record<string, number> = {};
  for (const c of rows) states[c.state] = (states[c.state] ?? 0) + 1;

  const entries = await withLedger(db)
    .selectFrom('ledger_entries')
    .select(['user_id', 'request_id'])
    .where('request_id', 'like', 'option%')
    .execute();
  const entryCount = new Map<string, number>();
  for (const e of entries) {
    const key = `${e.user_id}/${e.request_id}`;
    entryCount.set(key, (entryCount.get(key) ?? 0) + 1);
  }
  const holds = new Map(
    (await withLedger(db).selectFrom('ledger_holds').select(['id', 'state', 'amount']).execute()).map((h) => [h.id, h]),
  );
  const pins = new Set(
    (await withPriceRecord(db).selectFrom('price_pins').select(['symbol', 'seq', 'owner']).execute()).map(
      (p) => `${p.owner}/${p.symbol}/${p.seq}`,
    ),
  );
  // Final-state events per contract (the user event written in the settling transaction).
  const finalEvents = new Map<number, number>();
  const events = await db
    .selectFrom('user_events')
    .select('payload')
    .where('kind', '=', OPTION_CONTRACT_EVENT)
    .execute();
  for (const e of events) {
    const c = JSON.parse(e.payload) as { id: number; state: OptionState };
    if (FINAL_OPTION_STATES.includes(c.state)) finalEvents.set(c.id, (finalEvents.get(c.id) ?? 0) + 1);
  }
  // Every recorded tick of the contracts' instruments, by symbol (a test records minutes of ticks, not days).
  const symbols = [...new Set(rows.map((r) => r.symbol))];
  const ticksOf = new Map<string, { seq: number; ts: number; price: string }[]>();
  for (const symbol of symbols) {
    ticksOf.set(
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

  const expected = new Map<string, { balance: number; held: number }>();
  const at = (userId: number, book: string) => {
    const key = `${userId}/${book}`;
    let row = expected.get(key);
    if (!row) {
      row = { balance: 0, held: 0 };
      expected.set(key, row);
    }
    return row;
  };
  for (const f of funding) at(f.userId, f.book).balance += f.units;

  const lags: number[] = [];
  for (const c of rows) {
    const problem = contractProblem(c, {
      entryCount,
      holds,
      pins,
      finalEvents: finalEvents.get(c.id) ?? 0,
      ticks: ticksOf.get(c.symbol) ?? [],
    });
    if (problem)
      problems.push(`contract ${c.id} (${c.direction} ${c.symbol} ${c.seconds}s ${c.book}, ${c.state}): ${problem}`);
    if (FINAL_OPTION_STATES.includes(c.state)) at(c.user_id, c.book).balance += (c.payout ?? 0) - c.stake;
    else at(c.user_id, c.book).held += c.stake;
    if (c.state !== 'cancelled' && c.settled_at !== null && c.expiry_ts !== null) lags.push(c.settled_at - c.expiry_ts);
  }

  const ledger = new Ledger(handle);
  for (const [key, want] of expected) {
    const [user, book] = key.split('/');
    const balances = await ledger.balances(Number(user), book as 'real' | 'simulator');
    const row = balances.find((b) => b.type === 'option' && b.currency === 'USDT');
    const got = { balance: row?.balance ?? 0, held: row?.held ?? 0 };
    if (got.balance !== want.balance || got.held !== want.held) {
      problems.push(`user ${user} ${book} option USDT: ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
    }
  }
  problems.push(...(await ledgerAndChainProblems(db)));
  return { problems, states, lags };
}

interface Context {
  entryCount: Map<string, number>;
  holds: Map<number, { id: number; state: string; amount: number }>;
  pins: Set<string>;
  finalEvents: number;
  /** The recorded ticks of the contract's instrument, by time. */
  ticks: readonly { seq: number; ts: number; price: string }[];
}

/** What is wrong with one contract, or null. */
function contractProblem(c: Row, x: Context): string | null {
  const n = (request: string) => x.entryCount.get(`${c.user_id}/${request}`) ?? 0;
  const stakeEntries = n(`option:${c.request_id}`);
  const settleEntries = n(`option-settle:${c.id}`);
  const payoutEntries = n(`option-payout:${c.id}`);
  const hold = x.holds.get(c.hold_id);
  if (stakeEntries !== 1) return `${stakeEntries} stake entries`;
  if (c.state === 'waiting' || c.state === 'running') {
    if (settleEntries + payoutEntries !== 0) return `open with settling entries (${settleEntries}, ${payoutEntries})`;
    if (hold?.state !== 'open' || hold.amount !== c.stake) return `open with hold ${JSON.stringify(hold)}`;
    if (x.finalEvents !== 0) return `open with ${x.finalEvents} final events`;
    return null;
  }
  if (settleEntries !== 1 || payoutEntries !== (c.state === 'won' ? 1 : 0)) {
    return `entries settle ${settleEntries}, payout ${payoutEntries}`;
  }
  const holdState = c.state === 'lost' ? 'posted' : 'voided';
  if (hold?.state !== holdState) return `hold is ${hold?.state}, expected ${holdState}`;
  if (x.finalEvents !== 1) return `${x.finalEvents} final events`;
  if (c.settled_at === null) return 'settled without settled_at';
  if (c.state === 'cancelled') {
    if (c.entry_seq !== null) return 'cancelled with an entry tick';
    if (c.payout !== c.stake) return `cancelled paying ${c.payout} of a stake of ${c.stake}`;
    return null;
  }

  const instrument = instrumentBySymbol(c.symbol);
  if (!instrument) return 'unknown instrument';
  if (c.entry_seq === null || c.entry_ts === null || c.entry_price === null || c.expiry_ts === null) {
    return 'settled from ticks without an entry tick';
  }
  // The entry: the first recorded tick after acceptance, as recorded, pinned.
  const first = x.ticks.find((t) => t.ts > c.accepted_at);
  if (first?.seq !== c.entry_seq || first.ts !== c.entry_ts || first.price !== c.entry_price) {
    return `entry ${c.entry_seq}@${c.entry_ts} ${c.entry_price}, first recorded after acceptance ${JSON.stringify(first)}`;
  }
  if (!x.pins.has(`option:${c.id}/${c.symbol}/${c.entry_seq}`)) return 'entry tick not pinned';
  if (c.expiry_ts !== optionExpiryTs(c.entry_ts, c.seconds)) return `expiry ${c.expiry_ts} is not entry + period`;

  // The rule over every recorded tick after the entry up to E (the window is the rule's, not a query's).
  const units = (p: string) => toUnits(p, instrument.priceScale) ?? -1n;
  const entryTs = c.entry_ts;
  const expiryTs = c.expiry_ts;
  const after = x.ticks.filter((t) => t.ts > entryTs && t.ts <= expiryTs);
  const settlement = optionResult({
    direction: c.direction,
    entry: { seq: c.entry_seq, ts: c.entry_ts, price: units(c.entry_price) },
    seconds: c.seconds,
    ticks: after.map((t): OptionTick => ({ seq: t.seq, ts: t.ts, price: units(t.price) })),
  });
  const exit = settlement.exit ? after.find((t) => t.seq === settlement.exit?.seq) : undefined;
  const payout = Number(optionPayout(BigInt(c.stake), c.ratio, settlement.result, currencyScale(c.currency)));
  const got = { state: c.state, exit: [c.exit_seq, c.exit_ts, c.exit_price], payout: c.payout };
  const want = { state: settlement.result, exit: [exit?.seq ?? null, exit?.ts ?? null, exit?.price ?? null], payout };
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    return `settled ${JSON.stringify(got)}, the record gives ${JSON.stringify(want)}`;
  }
  if (c.exit_seq !== null && !x.pins.has(`option:${c.id}/${c.symbol}/${c.exit_seq}`)) return 'exit tick not pinned';
  return null;
}
