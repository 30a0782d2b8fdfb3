import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChainBatch, RecordedTick } from '../../../../protocol/price-record';
import { chainHash, GENESIS_HASH, symbolDigest, ticksDigest } from '../../../../protocol/rules/price-record';
import type { SpotOrder } from '../../../../protocol/spot';
import { createQueryClient } from '../../../data/query';
import { i18n, loadNamespace, startI18n } from '../../../lib/i18n';
import { RecheckMark } from './RecheckMark';

/**
 * The mark over the real api client, with the server's answers stubbed at fetch: the first record call answers
 * "not sealed yet" (as the server does within a second of the fill), the mark asks again and then shows the head.
 */

const tick: RecordedTick = { symbol: 'BTC', seq: 41, ts: 1_700_000_000_500, price: '65000.50' };
const order: SpotOrder = {
  id: 9,
  symbol: 'BTC',
  side: 'buy',
  type: 'market',
  mode: 'amount',
  qty: null,
  amount: '100',
  price: null,
  fee_rate: '0.001',
  held: '0',
  state: 'completed',
  cancel_reason: null,
  fill: { tick, qty: '0.00153', price: '65000.50', value: '99.450765', fee: '0.099451', total: '99.550216', at: 1 },
  request_id: 'r-9',
  created_at: 1,
  updated_at: 1,
};

const config = {
  fee_rate: '0.001',
  min_value: '5',
  price_band: '0.02',
  quote_scale: 6,
  pairs: [{ symbol: 'BTC', quote: 'USDT', price_step: '0.01', qty_step: '0.00001', price_scale: 2, qty_scale: 5 }],
};

/** Batch 1 holds the fill's tick; batches 2 and 3 follow it; 3 is the head. */
const batches: ChainBatch[] = [];
for (let id = 1, prev = GENESIS_HASH; id <= 3; id++) {
  const digest = ticksDigest(id === 1 ? [tick] : [{ ...tick, seq: 41 + id }]);
  const hash = chainHash(prev, digest);
  batches.push({ id, from_ts: 0, to_ts: 0, prev_hash: prev, digest, hash });
  prev = hash;
}
const head = batches[2]!;

const ok = (data: unknown) => ({ type: 'ok', code: 1, message: 'OK', data });

function serve(answers: { notSealedFirst?: boolean; chainDown?: boolean } = {}) {
  let recordCalls = 0;
  const fetchMock = vi.fn(async (input: Request | string) => {
    const url = new URL(typeof input === 'string' ? input : input.url);
    const path = url.pathname.replace('/api/', '');
    let body: unknown;
    if (path === 'coin/trade/config') body = ok(config);
    else if (answers.chainDown) throw new TypeError('Failed to fetch');
    else if (path === 'market/chain/record') {
      recordCalls++;
      body =
        answers.notSealedFirst && recordCalls === 1
          ? { type: 'error', code: 0, message: 'not sealed yet', field: 'seq' }
          : ok({
              batch: batches[0],
              ticks: [tick],
              parts: [{ symbol: 'BTC', digest: symbolDigest([tick]) }],
            });
    } else if (path === 'market/chain/head') body = ok({ batch_id: head.id, hash: head.hash, to_ts: 0 });
    else if (path === 'market/chain/links') {
      const from = Number(url.searchParams.get('from_id'));
      const to = Number(url.searchParams.get('to_id'));
      body = ok(batches.slice(from, to).map(({ id, digest, hash }) => ({ id, digest, hash })));
    } else throw new Error(`unexpected call ${path}`);
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { recordCalls: () => recordCalls };
}

const show = (o: SpotOrder) =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RecheckMark order={o} />
    </QueryClientProvider>,
  );

const stateOf = () => screen.getByTestId('recheck').getAttribute('data-state');

beforeAll(async () => {
  await startI18n('en');
  await i18n.changeLanguage('en');
  await loadNamespace('spot');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('RecheckMark', () => {
  it('checks, waits for the seal, then shows the head it reached and what was checked', async () => {
    const server = serve({ notSealedFirst: true });
    show(order);
    expect(stateOf()).toBe('checking');
    expect(screen.getByTestId('recheck').textContent).toBe(i18n.t('spot.recheck.checking'));
    await waitFor(() => expect(stateOf()).toBe('ok'));
    expect(screen.getByText(i18n.t('spot.recheck.ok', { head: 3 }))).toBeTruthy();
    expect(server.recordCalls()).toBe(2);
    fireEvent.click(screen.getByRole('button', { name: i18n.t('spot.recheck.what') }));
    expect(screen.getByTestId('recheck-explain').textContent).toBe(
      i18n.t('spot.recheck.explain', { seq: 41, batch: 1, head: 3, hash: head.hash.slice(0, 12) }),
    );
  });

  it('says why a fill the rule does not give could not be re-checked', async () => {
    serve();
    show({ ...order, fill: { ...order.fill!, fee: '0.099452' } });
    await waitFor(() => expect(stateOf()).toBe('failed'));
    expect(screen.getByText(i18n.t('spot.recheck.failed'))).toBeTruthy();
    expect(screen.getByText(i18n.t('spot.recheck.reason.fill_differs'))).toBeTruthy();
  });

  it('claims nothing when the record cannot be reached, and offers another try', async () => {
    serve({ chainDown: true });
    show(order);
    await waitFor(() => expect(stateOf()).toBe('unavailable'), { timeout: 10_000 });
    expect(screen.queryByText(i18n.t('spot.recheck.failed'))).toBeNull();
    serve();
    fireEvent.click(screen.getByRole('button', { name: i18n.t('spot.recheck.retry') }));
    await waitFor(() => expect(stateOf()).toBe('ok'));
  });
});
