import { afterAll, beforeAll, expect, vi } from 'vitest';
import { recheckLever } from '../../core/recheck/lever';
import type { RecordFetchers } from '../../core/recheck/record';
import { okEnvelope } from '../../protocol';
import type { LeverPhase, LeverPosition } from '../../protocol/lever';
import type { LeverTerms } from '../../protocol/rules/lever';
import { fromUnits, toUnits } from '../../protocol/rules/spot';
import { type CallData, type CallPath, calls } from '../../server/domains';
import { approveVerification } from '../../server/domains/identity';
import { DEFAULT_LEVER_SETTINGS, termsFor } from '../../server/domains/lever/terms';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { MarketFeed } from '../../server/market/feed';
import { translate } from '../../server/platform/i18n/messages';
import { HandMarket } from './hand-market';
import { appPerSuite, type DatabaseKind, type TestApp, uniqueEmail } from './harness';

/**
 * The set-up and helpers the lever suites share (lever-concurrency, lever-fairness), in the style of lever.test.ts:
 * the real app on one database with a HandMarket the test drives tick by tick, the contract account funded through
 * the Ledger, verified traders, and small call helpers. `leverBench(kind)` registers the suite's hooks; call it
 * inside the describe block.
 */

/** The BTC terms new positions are opened under (the defaults: 0.001 per lot, MMR 0.5%, fee 0.05%). */
export const BTC_TERMS = termsFor(DEFAULT_LEVER_SETTINGS, 'BTC') as LeverTerms;

/** A price of BTC as units of its tick (cents). */
export const btc = (text: string): bigint => {
  const units = toUnits(text, BTC_TERMS.priceScale);
  if (units === null) throw new Error(`not a BTC price: ${text}`);
  return units;
};
export const btcText = (units: bigint): string => fromUnits(units, BTC_TERMS.priceScale);

/** Non-negative USDT text (zero included) as ledger units (6 decimals). */
export const usdt = (text: string): number => {
  const units = toUnits(text, BTC_TERMS.quoteScale);
  if (units === null) throw new Error(`not a USDT amount: ${text}`);
  return Number(units);
};
export const usdtText = (units: bigint | number): string => fromUnits(BigInt(units), BTC_TERMS.quoteScale);

export interface Tick {
  symbol: string;
  seq: number;
  ts: number;
  price: string;
}

export interface LeverBench {
  readonly kind: DatabaseKind;
  readonly t: TestApp;
  readonly ledger: Ledger;
  readonly market: HandMarket;
  /** One tick at `price`, a second after the last (the app's clock moves with it). */
  trade(symbol: string, price: string): Tick;
  fund(userId: number, amount: string): Promise<void>;
  ok<P extends CallPath>(path: P, fields: Record<string, string>, token?: string): Promise<CallData<P>>;
  refused(path: CallPath, fields: Record<string, string>, token: string, key: string): Promise<void>;
  contract(userId: number, book?: 'real' | 'simulator'): Promise<{ balance: number; available: number }>;
  trader(usdt: string | undefined, verify?: boolean): Promise<{ token: string; id: number }>;
  /** A fresh request id, unique in the suite. */
  rid(): string;
  /** A lever/submit form: a 10-lot 10x isolated market long on BTC in the real book unless `fields` say otherwise. */
  order(fields?: Record<string, string>): Record<string, string>;
  /** Waits (without stepping the market) until the engine has moved the position into `wanted`. */
  phase(token: string, id: number, wanted: LeverPhase, timeout?: number): Promise<LeverPosition>;
  /** Waits until the engine has acted on everything queued so far (a round queued after the call has run). */
  settle(): Promise<void>;
  /** The ledger audit: [] when every balance, hold and entry adds up. */
  ledgerProblems(): Promise<string[]>;
}

export function leverBench(kind: DatabaseKind, symbols: readonly string[] = ['BTC', 'ETH']): LeverBench {
  const market = new HandMarket(symbols);
  const feed = new MarketFeed(market);
  let t: TestApp | undefined;
  let ledger: Ledger | undefined;
  appPerSuite(
    kind,
    (app) => {
      t = app;
    },
    { market: { feed, record: { flushMs: 50 } } },
  );
  const app = () => {
    if (!t) throw new Error('the suite has not started');
    return t;
  };
  const book = () => {
    if (!ledger) throw new Error('the suite has not started');
    return ledger;
  };

  let seeds = 0;
  let requests = 0;
  const bench: LeverBench = {
    kind,
    market,
    get t() {
      return app();
    },
    get ledger() {
      return book();
    },
    trade(symbol, price) {
      app().clock.advance(1_000);
      return { symbol, ...market.trade(symbol, price, app().clock.now()) };
    },
    async fund(userId, amount) {
      await book().credit({
        userId,
        requestId: `seed-${++seeds}`,
        kind: 'deposit',
        currency: 'USDT',
        amount: usdt(amount),
        from: 'deposits_clearing',
        to: 'contract',
      });
    },
    async ok(path, fields, token) {
      const { status, body } = await app().call(path, fields, token === undefined ? {} : { token });
      expect(status).toBe(200);
      expect(body, JSON.stringify(body)).toMatchObject({ type: 'ok' });
      return okEnvelope(calls[path].response).parse(body).data as CallData<typeof path>;
    },
    async refused(path, fields, token, key) {
      const { body } = await app().call(path, fields, { token });
      expect(body.type, JSON.stringify(body)).not.toBe('ok');
      expect(body.message).toBe(translate('en', key));
    },
    async contract(userId, which = 'real') {
      const row = (await book().balances(userId, which)).find((b) => b.type === 'contract' && b.currency === 'USDT');
      return { balance: row?.balance ?? 0, available: row?.available ?? 0 };
    },
    async trader(amount, verify = true) {
      const session = await app().registerByEmail(uniqueEmail('lev'));
      if (amount) await bench.fund(session.user.id, amount);
      if (verify) {
        const submitted = await bench.ok(
          'user/real_name',
          { country: 'DE', name: 'Test Trader', id_number: 'T0000001', address: 'Street 1', consent: '1' },
          session.token,
        );
        const review = await approveVerification(app().db, submitted.id, { operator: 'test' });
        if (!review.ok) throw new Error(review.problem);
      }
      return { token: session.token, id: session.user.id };
    },
    rid: () => `r${++requests}-${kind}`,
    order: (fields = {}) => ({
      symbol: 'BTC',
      side: 'long',
      type: 'market',
      margin_mode: 'isolated',
      lots: '10',
      leverage: '10',
      account: 'real',
      request_id: bench.rid(),
      ...fields,
    }),
    async phase(token, id, wanted, timeout = 10_000) {
      let p: LeverPosition | undefined;
      await vi.waitFor(
        async () => {
          p = await bench.ok('lever/info', { id: String(id) }, token);
          expect(p.phase).toBe(wanted);
        },
        { timeout, interval: 30 },
      );
      return p as LeverPosition;
    },
    settle: () => app().engineRounds('lever-engine'),
    async ledgerProblems() {
      return describeProblems(await checkLedger(app().db));
    },
  };

  beforeAll(async () => {
    ledger = new Ledger(app().handle);
    for (const symbol of symbols) {
      if (symbol === 'BTC') bench.trade('BTC', '60000.00');
      if (symbol === 'ETH') bench.trade('ETH', '3000.00');
    }
    // The engine leads once the jobs runner has run it: wait for a first round.
    await bench.settle();
  });
  afterAll(() => feed.close());
  return bench;
}

/**
 * Re-checks a closed row with core/recheck/lever.ts once its ticks are sealed. The client's re-check reads the price
 * record through the server's public market/chain calls, as the app does.
 */
export async function recheckClosed(b: LeverBench, p: LeverPosition) {
  const fetchers: RecordFetchers = {
    head: () => b.ok('market/chain/head', {}),
    record: async (symbol, seq) => {
      const { body } = await b.t.call('market/chain/record', { symbol, seq: String(seq) });
      // Refused (`tickNotRecorded`) until the recorder has sealed the tick's batch.
      return body.type === 'ok' ? okEnvelope(calls['market/chain/record'].response).parse(body).data : null;
    },
    links: (fromId, toId) => b.ok('market/chain/links', { from_id: String(fromId), to_id: String(toId) }),
  };
  let result: Awaited<ReturnType<typeof recheckLever>> | undefined;
  await vi.waitFor(
    async () => {
      result = await recheckLever(p, BTC_TERMS.quoteScale, fetchers);
      expect(result).not.toEqual({ ok: false, reason: 'not_sealed' });
    },
    { timeout: 10_000, interval: 50 },
  );
  return result;
}
