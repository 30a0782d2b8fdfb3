// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { OptionContract } from '../../protocol/options';
import type { RecordedTick } from '../../protocol/price-record';
import { symbolDigest } from '../../protocol/rules/price-record';
import { recheckOption } from './options';
import { record, T0, tickOf } from './test-record';

/**
 * The option re-check against a small record built with the published hash rules: one BTC tick per batch (seq = 100
 * + batch id, a second apart), the entry in batch 2, a 30 s contract whose exit is the last tick at or before E.
 */
const ENTRY = tickOf(2, '100.00');
// E = entry + 30 s = batch 32's time: the exit is batch 32's tick, the next tick (batch 33) lies after E.
const EXIT = tickOf(32, '101.50');
const won: OptionContract = {
  id: 1,
  symbol: 'BTC',
  direction: 'up',
  seconds: 30,
  ratio: '0.80',
  currency: 'USDT',
  stake: '10',
  account: 'simulator',
  state: 'won',
  entry: ENTRY,
  expiry_ts: ENTRY.ts + 30_000,
  exit: EXIT,
  payout: '18',
  request_id: 'r1',
  created_at: T0 + 1500,
  updated_at: T0 + 40_000,
  settled_at: T0 + 40_000,
};

describe('recheckOption', () => {
  it('passes a true record, proves the exit the last tick by the next one, and reaches the head', async () => {
    const f = record({ 32: '101.50' }, 40);
    expect(await recheckOption(won, 6, f)).toMatchObject({
      ok: true,
      headId: 40,
      entryBatchId: 2,
      exitBatchId: 32,
      proof: 'next_tick',
      nextTick: { seq: 133 },
    });
  });

  it('says how far it went when the record no longer holds the next tick', async () => {
    const f = record({ 32: '101.50' }, 40);
    f.missing.add(133);
    expect(await recheckOption(won, 6, f)).toMatchObject({ ok: true, proof: 'batch', nextTick: null });
  });

  it('refuses a posted exit when a later tick at or before E is recorded', async () => {
    const later: RecordedTick = { symbol: 'BTC', seq: 133, ts: EXIT.ts, price: '99.00' };
    // The batch after the exit is chained with a tick at E itself: the rule picks it, not the posted exit.
    const f = record({ 32: '101.50' }, 40, {});
    const original = f.record;
    f.record = async (symbol, seq) => {
      const r = await original(symbol, seq);
      if (r && seq === 133) return { ...r, ticks: [later], parts: [{ symbol: 'BTC', digest: symbolDigest([later]) }] };
      return r;
    };
    // The altered batch no longer hashes to its chained value.
    expect(await recheckOption(won, 6, f)).toEqual({ ok: false, reason: 'digest_differs' });
  });

  it('refuses a result, a payout or an entry that the rule and the record do not give', async () => {
    const f = record({ 32: '101.50' }, 40);
    expect(await recheckOption({ ...won, payout: '18.5' }, 6, f)).toEqual({ ok: false, reason: 'payout_differs' });
    expect(await recheckOption({ ...won, state: 'lost', payout: '0' }, 6, f)).toEqual({
      ok: false,
      reason: 'result_differs',
    });
    expect(await recheckOption({ ...won, exit: { ...EXIT, price: '101.5' } }, 6, f)).toEqual({
      ok: false,
      reason: 'tick_differs',
    });
    // Accepted before batch 1's tick: that tick, not batch 2's, was the first after acceptance.
    expect(await recheckOption({ ...won, created_at: T0 - 1 }, 6, f)).toMatchObject({ ok: false });
    expect(await recheckOption({ ...won, expiry_ts: ENTRY.ts + 31_000 }, 6, f)).toEqual({
      ok: false,
      reason: 'exit_differs',
    });
  });

  it('re-checks a refund (no tick after entry by E) and a flat contract', async () => {
    const flat = { ...won, state: 'flat' as const, exit: tickOf(32, '100.00'), payout: '10' };
    expect(await recheckOption(flat, 6, record({}, 40))).toMatchObject({ ok: true });
    // A refund cannot be posted while ticks after the entry lie before E.
    const refunded = { ...won, state: 'refunded' as const, exit: null, payout: '10' };
    expect(await recheckOption(refunded, 6, record({}, 40))).toEqual({ ok: false, reason: 'exit_differs' });
  });

  it('waits for the record to seal, and reports a chain that does not reach the head', async () => {
    const f = record({ 32: '101.50' }, 40);
    f.missing.add(ENTRY.seq);
    expect(await recheckOption(won, 6, f)).toEqual({ ok: false, reason: 'not_sealed' });
    const g = record({ 32: '101.50' }, 40);
    g.head = async () => ({ batch_id: 40, hash: 'f'.repeat(64), to_ts: 0 });
    expect(await recheckOption(won, 6, g)).toEqual({ ok: false, reason: 'chain_differs' });
  });
});
