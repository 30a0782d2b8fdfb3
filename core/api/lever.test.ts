// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LeverPosition } from '../../protocol/lever';
import { configureApi } from './client';
import {
  addLeverMargin,
  closeAllLeverPositions,
  closeLeverPosition,
  pollOpenPositions,
  reverseLeverPosition,
  setLeverStops,
  submitLeverOrder,
} from './lever';
import { failAnswer } from './testing';

// The envelope rules are core/api/client.test.ts's; here only what is lever's: the calls' paths and fields, which
// failures count as answered (a retry must reuse the request id only when no answer came), and the four-list poll.

const holding: LeverPosition = {
  id: 7,
  order_no: 'L7',
  symbol: 'BTC',
  direction: 'long',
  type: 'market',
  margin_mode: 'isolated',
  account_type: 'simulator',
  status: 1,
  phase: 'holding',
  lots: 1,
  quantity: '0.01',
  contract_size: '0.01',
  leverage: 10,
  mmr: '0.005',
  fee_rate: '0.0005',
  limit_price: null,
  entry_price: '50000',
  close_offset_price: null,
  profit_take_price: null,
  stop_loss_price: null,
  initial_margin: '50',
  additional_margin: '0',
  amount: '500',
  commission: '0.25',
  open_fee: '0.25',
  close_fee: null,
  Liquidation_Price: '45226.13',
  Liquidation_Time: null,
  floating_profit_or_loss: '0',
  unrealized_pnl_percent: '0',
  realized_pnl: null,
  realized_pnl_percent: null,
  total_profit_or_loss: null,
  insurance: null,
  close_reason: null,
  cancel_reason: null,
  entry: { symbol: 'BTC', seq: 5, ts: 50, price: '50000' },
  exit: null,
  mark: { symbol: 'BTC', seq: 6, ts: 60, price: '50000' },
  open_position_time: 50,
  time_to_close_position: null,
  request_id: 'req-1',
  created_at: 10,
  updated_at: 60,
};

const ok = (data: unknown) =>
  new Response(JSON.stringify({ type: 'ok', code: 1, message: 'OK', data }), {
    headers: { 'content-type': 'application/json' },
  });
const fail = failAnswer;

/** Each request as the server would read it: path, method and form fields. */
const sent: { path: string; method: string; form: Record<string, string> }[] = [];
let answer: (path: string, form: Record<string, string>) => Response | Promise<Response>;

beforeEach(() => {
  sent.length = 0;
  configureApi({ text: (key) => (key === 'offline' ? 'No connection' : '') });
  vi.stubGlobal('fetch', async (input: Request) => {
    const url = new URL(input.url);
    const form = Object.fromEntries(
      input.method === 'GET' ? url.searchParams : new URLSearchParams(await input.clone().text()),
    );
    const path = url.pathname.replace('/api/', '');
    sent.push({ path, method: input.method, form });
    return answer(path, form);
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('lever calls', () => {
  it('submits the order with its request id and answers the position', async () => {
    answer = () => ok({ ...holding, phase: 'waiting', status: 0 });
    const r = await submitLeverOrder({
      symbol: 'BTC',
      side: 'long',
      type: 'market',
      margin_mode: 'isolated',
      lots: '1',
      leverage: '10',
      account: 'simulator',
      request_id: 'req-1',
    });
    expect(r).toMatchObject({ ok: true, position: { id: 7, phase: 'waiting' } });
    expect(sent).toEqual([
      {
        path: 'lever/submit',
        method: 'POST',
        form: {
          symbol: 'BTC',
          side: 'long',
          type: 'market',
          margin_mode: 'isolated',
          lots: '1',
          leverage: '10',
          account: 'simulator',
          request_id: 'req-1',
        },
      },
    ]);
  });

  it('a refusal is answered (a new attempt may take a new id); no connection is not', async () => {
    answer = () => fail('Insufficient balance', 'amount', 'insufficientBalance');
    expect(await addLeverMargin({ id: 7, amount: '50', request_id: 'req-2' })).toEqual({
      ok: false,
      message: 'Insufficient balance',
      field: 'amount',
      reason: 'insufficientBalance',
      answered: true,
    });
    expect(sent.at(-1)).toMatchObject({
      path: 'lever/add_margin',
      form: { id: '7', amount: '50', request_id: 'req-2' },
    });
    answer = () => Promise.reject(new TypeError('network down'));
    expect(await closeLeverPosition(7, { lots: 3, request_id: 'req-3' })).toEqual({
      ok: false,
      message: 'No connection',
      answered: false,
    });
    expect(sent.at(-1)).toEqual({
      path: 'lever/close',
      method: 'POST',
      form: { id: '7', lots: '3', request_id: 'req-3' },
    });
  });

  it('a full close sends no lots and makes its own request id when none is given; close-all sends the book', async () => {
    answer = () => ok({ ...holding, status: 2, phase: 'closing', close_lots: null });
    expect(await closeLeverPosition(7)).toMatchObject({ ok: true, position: { phase: 'closing' } });
    const form = sent.at(-1)?.form ?? {};
    expect(Object.keys(form).sort()).toEqual(['id', 'request_id']);
    expect(form.request_id).toMatch(/^[\x21-\x7e]{1,48}$/);
    await closeLeverPosition(7);
    expect(sent.at(-1)?.form.request_id).not.toBe(form.request_id);

    answer = () => ok({ positions: [{ ...holding, status: 2, phase: 'closing' }] });
    const all = await closeAllLeverPositions('real');
    expect(all).toMatchObject({ ok: true, positions: [{ id: 7, phase: 'closing' }] });
    expect(sent.at(-1)).toEqual({ path: 'lever/close_all', method: 'POST', form: { account: 'real' } });
    answer = () => fail('Invalid input', 'account', 'invalidInput');
    expect(await closeAllLeverPositions('simulator')).toMatchObject({ ok: false, answered: true });
  });

  it('a reverse sends the position and the request id it is given, answered by the position closing', async () => {
    answer = () => ok({ ...holding, status: 2, phase: 'closing', reverse: true });
    expect(await reverseLeverPosition(7, 'req-9')).toMatchObject({ ok: true, position: { phase: 'closing' } });
    expect(sent.at(-1)).toEqual({ path: 'lever/reverse', method: 'POST', form: { id: '7', request_id: 'req-9' } });
    answer = () => fail('This position is already being closed', undefined, 'leverAlreadyClosing');
    expect(await reverseLeverPosition(7, 'req-10')).toMatchObject({ ok: false, answered: true });
  });

  it('an envelope without a reason is no answer the client can trust: a retry keeps the request id', async () => {
    answer = () =>
      new Response(JSON.stringify({ type: 'error', code: 0, message: 'Bad gateway' }), {
        headers: { 'content-type': 'application/json' },
      });
    expect(await closeLeverPosition(7)).toEqual({ ok: false, message: 'Bad gateway', answered: false });
  });

  it('sets stops, leaving out the one not given (the server clears it)', async () => {
    answer = () => ok({ ...holding, profit_take_price: '52000' });
    const r = await setLeverStops({ id: 7, take_profit: '52000' });
    expect(r).toMatchObject({ ok: true, position: { profit_take_price: '52000' } });
    expect(sent.at(-1)).toEqual({ path: 'lever/setstop', method: 'POST', form: { id: '7', take_profit: '52000' } });
  });
});

describe('the open positions poll', () => {
  it('asks lever/my_trade for orders and positions of both books and joins them', async () => {
    answer = (_, form) =>
      ok({
        positions: form.list === 'positions' && form.account === 'real' ? [{ ...holding, account_type: 'real' }] : [],
        next_before_id: null,
      });
    const open = await pollOpenPositions();
    if (open === false) throw new Error('the poll failed');
    expect(open.map((p) => p.account_type)).toEqual(['real']);
    expect(sent.map((s) => `${s.form.account}/${s.form.list}/${s.form.limit}`).sort()).toEqual([
      'real/orders/100',
      'real/positions/100',
      'simulator/orders/100',
      'simulator/positions/100',
    ]);
  });

  it('fails as a whole when any list fails: a partial list would look like closed positions', async () => {
    answer = (_, form) => (form.list === 'orders' ? fail('ERROR') : ok({ positions: [holding], next_before_id: null }));
    expect(await pollOpenPositions()).toBe(false);
  });
});
