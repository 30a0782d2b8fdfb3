import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { formatUnits, INSTRUMENTS } from '../market/instruments';
import { MarketSimulator, type Tick } from '../market/simulator';
import { LocalLeases } from '../platform/jobs/leases';
import { type ClockAnswer, ClockHook, HookClock, listenForClockRequests, WatchedLeases } from './hook';

const START = 1_700_000_040_000; // on the minute grid

/** A hook over a small simulator on a clock whose "real" time the test moves; no jobs to wait for. */
function rig(engines: string[] = [], roundLimitMs = 1_000) {
  let real = START + 400;
  const clock = new HookClock(() => real);
  const market = new MarketSimulator({
    seed: 'hook',
    now: clock.marketNow,
    instruments: INSTRUMENTS.filter((i) => i.symbol === 'BTC' || i.symbol === 'TRX'),
    backfillDays: 0,
    liveStart: START,
  });
  const ticks: Tick[] = [];
  market.subscribe((tick) => ticks.push(tick));
  const leases = new WatchedLeases(new LocalLeases(clock.now));
  const hook = new ClockHook({ clock, market, leases, engines, recorder: 'price-record', roundLimitMs });
  return {
    clock,
    market,
    ticks,
    leases,
    hook,
    passReal: (ms: number) => {
      real += ms;
    },
  };
}

/** A tick's price as the hook writes it (TRX has five decimals, BTC two). */
const priceOf = (tick: Tick) => formatUnits(tick.price, tick.symbol === 'TRX' ? 5 : 2);

const advanced = (answer: ClockAnswer) => {
  if (answer.clock !== 'advanced') throw new Error(`expected an answer, got ${JSON.stringify(answer)}`);
  return answer;
};

describe('the job clock hook', () => {
  it('is real time plus a forward-only offset; the market time stands still while held', () => {
    let real = 1_000;
    const clock = new HookClock(() => real);
    clock.jump(500);
    real += 10;
    expect(clock.now()).toBe(1_510);
    expect(clock.marketNow()).toBe(1_510);
    clock.hold();
    clock.jump(2_000);
    expect(clock.now()).toBe(3_510);
    expect(clock.marketNow()).toBe(1_510);
    expect(clock.market).toBe('held');
    expect(() => clock.jump(-1)).toThrow(/forward/);
    clock.release();
    expect(clock.marketNow()).toBe(3_510);
  });

  it('steps a ticking market through the whole jumped interval, each tick at or before the new now', async () => {
    const { hook, ticks } = rig();
    const answer = advanced(await hook.handle({ clock: 'advance', ms: 5_000, market: 'ticking' }));
    expect(answer.advancedBy).toBe(5_000);
    expect(answer.now).toBe(START + 5_400);
    // Grid times START, +1 s, …, +5 s: six steps of two instruments.
    expect(ticks.filter((t) => t.symbol === 'BTC').map((t) => t.ts - START)).toEqual(
      [0, 1, 2, 3, 4, 5].map((s) => s * 1000),
    );
    expect(answer.ticks.BTC).toMatchObject({ ts: START + 5_000, seq: 6 });
    expect(answer.ticks.BTC?.price).toMatch(/^\d+\.\d{2}$/);
    expect(answer.ticks.TRX?.price).toMatch(/^0\.\d{5}$/);
  });

  it('publishes nothing while held, and never fills the silent interval in later', async () => {
    const { hook, ticks } = rig();
    await hook.handle({ clock: 'advance', ms: 1_000, market: 'ticking' });
    const before = ticks.length;
    const held = advanced(await hook.handle({ clock: 'advance', ms: 20_000, market: 'held' }));
    expect(held.market).toBe('held');
    expect(held.ticks).toEqual({});
    expect(ticks.length).toBe(before);
    const resumed = advanced(await hook.handle({ clock: 'advance', ms: 2_000, market: 'ticking' }));
    const later = ticks.slice(before).map((t) => t.ts);
    // Held from START + 1.4 s to START + 21.4 s: the market goes on at the grid after it, with the next seq.
    expect(Math.min(...later)).toBe(START + 22_000);
    expect(Math.max(...later)).toBe(START + 23_000);
    expect(resumed.ticks.BTC?.seq).toBe(2 + 2);
  });

  it('takes one step of a held market at the next grid time, moving the clock there', async () => {
    const { hook, ticks, clock, passReal } = rig();
    await hook.handle({ clock: 'advance', ms: 0, market: 'held' });
    passReal(3_000);
    const step = advanced(await hook.handle({ clock: 'step' }));
    // Real time is START + 3.4 s: the step is the grid's START + 4 s, the clock moved by 0.6 s to it.
    expect(step.advancedBy).toBe(600);
    expect(step.now).toBe(START + 4_000);
    expect(step.market).toBe('held');
    expect(ticks.map((t) => [t.symbol, t.ts])).toEqual([
      ['BTC', START],
      ['TRX', START],
      ['BTC', START + 4_000],
      ['TRX', START + 4_000],
    ]);
    expect(step.ticks.BTC).toMatchObject({ ts: START + 4_000, seq: 2 });
    // Still held: time passes, nothing ticks.
    passReal(5_000);
    expect(clock.marketNow()).toBe(START + 4_000);
  });

  it('takes several steps, stopping at the first tick of a symbol at a given price', async () => {
    const first = rig();
    await first.hook.handle({ clock: 'advance', ms: 0, market: 'held' });
    const walk = advanced(await first.hook.handle({ clock: 'step', count: 5 }));
    // Held at START + 0.4 s, five steps: the clock moved to the fifth step's grid time.
    expect(walk.advancedBy).toBe(4_600);
    const trx = first.ticks.filter((t) => t.symbol === 'TRX');
    expect(trx.map((t) => t.ts - START)).toEqual([0, 1_000, 2_000, 3_000, 4_000, 5_000]);
    // The same market again, walking until the price of the fourth step: it stops at the first step priced so.
    const target = priceOf(trx[4] as Tick);
    const stop = trx.slice(1).find((t) => priceOf(t) === target) as Tick;
    const again = rig();
    await again.hook.handle({ clock: 'advance', ms: 0, market: 'held' });
    const found = advanced(
      await again.hook.handle({ clock: 'step', count: 5, until: { symbol: 'TRX', price: target } }),
    );
    expect(found.ticks.TRX).toMatchObject({ seq: stop.seq, price: target });
    expect(found.advancedBy).toBe(stop.ts - START - 400);
  });

  it('foretells the prices of the next steps of a held market without moving it', async () => {
    const { hook, ticks, clock } = rig();
    // Not while it ticks: the answer would be stale on arrival.
    expect((await hook.handle({ clock: 'ahead', symbol: 'TRX', count: 5 })).clock).toBe('error');
    await hook.handle({ clock: 'advance', ms: 0, market: 'held' });
    const before = ticks.length;
    const jumped = clock.jumped;
    const ahead = await hook.handle({ clock: 'ahead', symbol: 'TRX', count: 20 });
    if (ahead.clock !== 'ahead') throw new Error(JSON.stringify(ahead));
    expect(ahead.prices).toHaveLength(20);
    expect(ticks.length).toBe(before);
    expect(clock.jumped).toBe(jumped);
    // Asked twice, the same: the copy left the walk alone.
    const twice = await hook.handle({ clock: 'ahead', symbol: 'TRX', count: 20 });
    expect(twice).toEqual(ahead);
    // The steps then publish exactly those prices, whatever the clock did meanwhile.
    advanced(await hook.handle({ clock: 'step', count: 10 }));
    await hook.handle({ clock: 'advance', ms: 7_000, market: 'held' });
    advanced(await hook.handle({ clock: 'step', count: 10 }));
    const walked = ticks
      .slice(before)
      .filter((t) => t.symbol === 'TRX')
      .map(priceOf);
    expect(walked).toEqual(ahead.prices);
    const elsewhere = await hook.handle({ clock: 'ahead', symbol: 'AAPL', count: 5 });
    expect(elsewhere.clock).toBe('error');
  });

  it('answers a bad request with an error and goes on with the next', async () => {
    const { hook } = rig();
    expect(await hook.handle({ clock: 'advance', ms: -5, market: 'held', id: 3 })).toMatchObject({
      clock: 'error',
      id: 3,
    });
    expect(await hook.handle({ clock: 'advance', ms: 700_000, market: 'ticking' })).toMatchObject({
      clock: 'error',
      message: expect.stringMatching(/at most/),
    });
    expect(advanced(await hook.handle({ clock: 'now', id: 4 })).id).toBe(4);
  });

  it('answers only after every engine ran a whole round that started after the jump', async () => {
    const { hook, leases } = rig(['options-engine']);
    let answered = false;
    const answer = hook.handle({ clock: 'advance', ms: 1_000, market: 'held' }).then((a) => {
      answered = true;
      return a;
    });
    // Let the request move the clock and start waiting.
    await new Promise((r) => setImmediate(r));
    await leases.acquire('job:options-engine', 'me', 5_000);
    await new Promise((r) => setImmediate(r));
    expect(answered).toBe(false);
    await leases.acquire('job:options-engine', 'me', 5_000);
    expect((await answer).clock).toBe('advanced');
  });

  it('answers with an error when an engine runs no round in time', async () => {
    const { hook } = rig(['lever-engine'], 50);
    expect(await hook.handle({ clock: 'advance', ms: 0, market: 'held' })).toMatchObject({
      clock: 'error',
      message: 'job lever-engine ran no round within 50 ms',
    });
  });

  it('answers requests arriving on the IPC channel, and ignores other messages', async () => {
    const { hook } = rig();
    const sent: unknown[] = [];
    const channel = Object.assign(new EventEmitter(), { send: (m: unknown) => sent.push(m) > 0 });
    expect(listenForClockRequests(hook, channel as unknown as NodeJS.Process)).toBe(true);
    channel.emit('message', { hello: 1 });
    channel.emit('message', { clock: 'now', id: 9 });
    await expect.poll(() => sent.length).toBe(1);
    expect(sent[0]).toMatchObject({ clock: 'advanced', id: 9, advancedBy: 0 });
    expect(listenForClockRequests(hook, new EventEmitter() as unknown as NodeJS.Process)).toBe(false);
  });
});
