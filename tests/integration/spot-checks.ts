import type { Kysely } from 'kysely';
import { fromUnits, toUnits } from '../../protocol/rules/spot';
import { withSpot } from '../../server/domains/spot';
import { withLedger } from '../../server/ledger';
import { currencyScale } from '../../server/ledger/amounts';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { withPriceRecord } from '../../server/market';
import { instrumentBySymbol } from '../../server/market/instruments';
import { verifyPriceChain } from '../../server/market/price-chain';
import type { DatabaseHandle } from '../../server/platform/db/connect';
import type { Database } from '../../server/platform/db/schema';

/**
 * The whole-database checks of the spot crash and cluster tests: every order is in exactly one state with exactly
 * the ledger entries of that state (filled once, or resting with its hold open, or cancelled with its hold
 * released), every user's balances are their funding plus their fills, the ledger adds up and the price chain holds.
 * Returns a list of problems (empty when everything is right), so a failure names every order that is wrong.
 */

export interface Funding {
  userId: number;
  /** Currency -> minor units credited before trading. */
  amounts: Record<string, number>;
}

export interface OrderCheck {
  problems: string[];
  states: Record<string, number>;
}

export async function checkSpotOrders(handle: DatabaseHandle, funding: readonly Funding[]): Promise<OrderCheck> {
  const db = handle.db;
  const problems: string[] = [];
  const orders = await withSpot(db).selectFrom('spot_orders').selectAll().orderBy('id').execute();
  const states: Record<string, number> = {};
  for (const o of orders) states[o.state] = (states[o.state] ?? 0) + 1;

  // Ledger entries of spot by user and request id, and the holds by id.
  const entries = await withLedger(db)
    .selectFrom('ledger_entries')
    .select(['user_id', 'request_id'])
    .where('request_id', 'like', 'spot%')
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

  // Expected balances: funding, minus what fills took, plus what they gave; held: what open orders hold.
  const expected = new Map<string, { balance: number; held: number }>();
  const at = (userId: number, currency: string) => {
    const key = `${userId}/${currency}`;
    let row = expected.get(key);
    if (!row) {
      row = { balance: 0, held: 0 };
      expected.set(key, row);
    }
    return row;
  };
  for (const f of funding)
    for (const [currency, units] of Object.entries(f.amounts)) at(f.userId, currency).balance += units;

  for (const o of orders) {
    const n = (request: string) => entryCount.get(`${o.user_id}/${request}`) ?? 0;
    const fillEntries = n(`spot-fill:${o.id}`);
    const legEntries = n(`spot-legs:${o.id}`);
    const releaseEntries = n(`spot-release:${o.id}`);
    const holdEntries = n(`spot:${o.request_id}`);
    const hold = holds.get(o.hold_id);
    const name = `order ${o.id} (${o.side} ${o.type} ${o.symbol}, ${o.state})`;
    if (holdEntries !== 1) problems.push(`${name}: ${holdEntries} hold entries`);
    const held = o.side === 'buy' ? 'USDT' : o.symbol;
    if (o.state === 'completed') {
      if (fillEntries !== 1 || legEntries !== 1 || releaseEntries !== 0) {
        problems.push(`${name}: entries fill ${fillEntries}, legs ${legEntries}, release ${releaseEntries}`);
      }
      if (hold?.state !== 'posted') problems.push(`${name}: hold is ${hold?.state}`);
      if (o.fill_seq === null || o.fill_ts === null || o.fill_price === null) {
        problems.push(`${name}: no fill tick`);
        continue;
      }
      if (o.fill_ts <= o.accepted_at) problems.push(`${name}: fill tick at ${o.fill_ts} not after ${o.accepted_at}`);
      if (!pins.has(`spot:${o.id}/${o.symbol}/${o.fill_seq}`)) problems.push(`${name}: fill tick not pinned`);
      const recorded = await withPriceRecord(db)
        .selectFrom('price_ticks')
        .select(['ts', 'price'])
        .where('symbol', '=', o.symbol)
        .where('seq', '=', o.fill_seq)
        .executeTakeFirst();
      if (recorded?.ts !== o.fill_ts || recorded?.price !== o.fill_price) {
        problems.push(`${name}: fill tick ${o.fill_seq} is recorded as ${JSON.stringify(recorded)}`);
      }
      if (o.type === 'limit' && o.price !== null) {
        const scale = instrumentBySymbol(o.symbol)?.priceScale ?? 2;
        const limit = toUnits(o.price, scale) ?? 0n;
        const price = toUnits(o.fill_price, scale) ?? 0n;
        if (o.side === 'buy' ? price > limit : price < limit) {
          problems.push(`${name}: filled at ${o.fill_price} past ${o.price}`);
        }
      }
      const coinScale = currencyScale(o.symbol);
      const coin = Number(toUnits(o.fill_qty ?? '', coinScale) ?? Number.NaN);
      const total = Number(toUnits(o.fill_total ?? '', 6) ?? Number.NaN);
      const sign = o.side === 'buy' ? 1 : -1;
      at(o.user_id, o.symbol).balance += sign * coin;
      at(o.user_id, 'USDT').balance -= sign * total;
    } else if (o.state === 'cancelled') {
      if (fillEntries !== 0 || legEntries !== 0 || releaseEntries !== 1) {
        problems.push(`${name}: entries fill ${fillEntries}, legs ${legEntries}, release ${releaseEntries}`);
      }
      if (hold?.state !== 'voided') problems.push(`${name}: hold is ${hold?.state}`);
    } else {
      if (fillEntries + legEntries + releaseEntries !== 0) problems.push(`${name}: open with settling entries`);
      if (hold?.state !== 'open' || hold.amount !== o.held) problems.push(`${name}: hold ${JSON.stringify(hold)}`);
      at(o.user_id, held).held += o.held;
    }
  }

  const ledger = new Ledger(handle);
  for (const f of funding) {
    const balances = await ledger.balances(f.userId);
    for (const [key, want] of expected) {
      const [user, currency] = key.split('/');
      if (Number(user) !== f.userId) continue;
      const row = balances.find((b) => b.type === 'coin' && b.currency === currency);
      const got = { balance: row?.balance ?? 0, held: (row?.balance ?? 0) - (row?.available ?? 0) };
      if (got.balance !== want.balance || got.held !== want.held) {
        problems.push(`user ${f.userId} ${currency}: ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
      }
    }
  }
  problems.push(...(await ledgerAndChainProblems(db)));
  return { problems, states };
}

/** The ledger check (server/ledger/consistency.ts) and the price chain check (`npm run ops -- market verify`). */
export async function ledgerAndChainProblems(db: Kysely<Database>): Promise<string[]> {
  const problems = describeProblems(await checkLedger(db));
  const chain = await verifyPriceChain(db);
  if (chain.difference !== null) problems.push(`price chain: ${chain.difference}`);
  return problems;
}

/** The ledger's minor units of a decimal text of `currency` (funding in tests). */
export function unitsOf(currency: string, text: string): number {
  const units = toUnits(text, currencyScale(currency));
  if (units === null) throw new Error(`${text} is not an amount of ${currency}`);
  return Number(units);
}

/** A price on the pair's step: `price` moved by `basisPoints` (1/100 %), rounded down to the tick. */
export function priceNear(symbol: string, price: string, basisPoints: number): string {
  const instrument = instrumentBySymbol(symbol);
  if (!instrument) throw new Error(`no instrument ${symbol}`);
  const units = toUnits(price, instrument.priceScale);
  if (units === null) throw new Error(`${price} is not a price of ${symbol}`);
  return fromUnits((units * BigInt(10_000 + basisPoints)) / 10_000n, instrument.priceScale);
}
