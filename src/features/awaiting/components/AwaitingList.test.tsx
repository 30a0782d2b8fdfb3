import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Subject } from 'rxjs';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { C2cOrder } from '../../../../protocol/c2c';
import type { IeoOrder } from '../../../../protocol/ieo';
import { i18n, loadNamespace, startI18n } from '../../../lib/i18n';
import { clearSession, setSession } from '../../../state/session';
import { c2cOrder, ieoOrder } from '../test-orders';
import { AwaitingList } from './AwaitingList';
import { AwaitingYou } from './AwaitingYou';

/**
 * The "waiting for you" list over subjects standing in for the tab's `ieo` and `c2c` streams, on a driven clock: the
 * fake timers' clock is the server clock here, and it also runs the animation frames the streams' values wait for.
 */

// Each test's stand-ins; the factories read them when the list asks for its streams.
let ieo$ = new Subject<IeoOrder[]>();
let c2c$ = new Subject<C2cOrder[]>();
const asked = vi.hoisted(() => ({ ieo: 0, c2c: [] as unknown[] }));
vi.mock('../../../../streams/ieo/subscriptions', () => ({
  ieoOrders: () => {
    asked.ieo += 1;
    return { orders$: ieo$ };
  },
}));
vi.mock('../../../../streams/c2c/orders', () => ({
  c2cOrders: (options?: unknown) => {
    asked.c2c.push(options);
    return { orders$: c2c$ };
  },
}));
vi.mock('../../../../core/clock', () => ({ serverNow: () => Date.now() }));
vi.mock('@tanstack/react-router', () => ({
  Link: ({ children, to, search, ...rest }: { children: ReactNode; to: string; search: { id: number } }) => (
    <a href={`${to}?id=${search.id}`} {...rest}>
      {children}
    </a>
  ),
}));

const NOW = Date.UTC(2025, 4, 6, 20, 14);
const MIN = 60_000;
const FRAME = 16;

beforeAll(async () => {
  await startI18n('en');
  await i18n.changeLanguage('en');
  await loadNamespace('awaiting');
});
beforeEach(() => {
  ieo$ = new Subject();
  c2c$ = new Subject();
  asked.ieo = 0;
  asked.c2c = [];
});
afterEach(() => {
  cleanup();
  clearSession();
  vi.useRealTimers();
});

/** Fake timers for everything the list waits on: its clock, the server clock's ticker and the frames. */
function driveClock(): void {
  vi.useFakeTimers({
    now: NOW,
    toFake: [
      'Date',
      'setTimeout',
      'clearTimeout',
      'setInterval',
      'clearInterval',
      'requestAnimationFrame',
      'cancelAnimationFrame',
    ],
  });
}
/** A stream's news, drawn at the next frame. */
function push<T>(stream: Subject<T>, value: T): void {
  act(() => {
    stream.next(value);
    vi.advanceTimersByTime(FRAME);
  });
}
function advance(ms: number): void {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}
const region = () => screen.queryByRole('region', { name: 'Waiting for you' });
const announced = () => screen.getByTestId('awaiting-announcement').textContent;
const row = (key: string) => screen.getByTestId(`awaiting-${key}`);
const left = (key: string) => row(key).querySelector('[data-testid="awaiting-left"]');

describe('AwaitingList', () => {
  it('shows an allotment awaiting payment with its deadline counting down, until the stream says it is paid', () => {
    driveClock();
    render(<AwaitingList />);
    push(c2c$, []);
    push(ieo$, [ieoOrder(7, 'subscribed', NOW + 14 * MIN)]);
    expect(region()).toBeNull();
    expect(announced()).toBe('');

    push(ieo$, [ieoOrder(7, 'allotted', NOW + 14 * MIN)]);
    expect(region()).not.toBeNull();
    expect(row('ieo-7').getAttribute('href')).toBe('/pages/assets/ieo/orderDetail?id=7');
    expect(row('ieo-7').textContent).toContain('Pay your DEMO allotment');
    expect(row('ieo-7').textContent).toContain('40 DEMO allotted, 2.00 USDT to pay');
    expect(row('ieo-7').textContent).toContain('Due by May 6, 2025');
    expect(left('ieo-7')?.textContent).toBe('14:00 left');
    // Its appearance is announced once; the ticking part is no live region and sits in none.
    expect(announced()).toBe('Waiting for you: Pay your DEMO allotment');
    expect(left('ieo-7')?.getAttribute('aria-live')).toBe('off');
    expect(left('ieo-7')?.closest('[role="status"], [aria-live="polite"], [aria-live="assertive"]')).toBeNull();

    advance(1_000);
    expect(left('ieo-7')?.textContent).toBe('13:59 left');
    advance(60_000);
    expect(left('ieo-7')?.textContent).toBe('12:59 left');
    expect(announced()).toBe('Waiting for you: Pay your DEMO allotment');

    push(ieo$, [ieoOrder(7, 'paid', NOW + 14 * MIN)]);
    expect(region()).toBeNull();
    expect(announced()).toBe('');
  });

  it('drops an allotment whose payment window ended on the server clock, before the lapse arrives', () => {
    driveClock();
    render(<AwaitingList />);
    push(ieo$, [ieoOrder(7, 'allotted', NOW + 2_000)]);
    expect(left('ieo-7')?.textContent).toBe('00:02 left');
    advance(2_000);
    expect(region()).toBeNull();
    push(ieo$, [ieoOrder(7, 'lapsed', NOW + 2_000)]);
    expect(region()).toBeNull();
  });

  it('shows a C2C order the buyer must pay, with its 30-minute window, and one the merchant must release', () => {
    driveClock();
    render(<AwaitingList />);
    push(ieo$, []);
    push(c2c$, [
      c2cOrder(21, 'buyer', 1, NOW - 5 * MIN),
      c2cOrder(22, 'buyer', 2, NOW - 5 * MIN), // paid: the merchant's turn, not this user's
    ]);
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    expect(row('c2c-21').getAttribute('href')).toBe('/pages/assets/c2c/orderDetail?id=21');
    expect(row('c2c-21').textContent).toContain('Pay Mia for your BTC');
    expect(row('c2c-21').textContent).toContain('Pay 123.45 EUR, then mark the order as paid');
    expect(left('c2c-21')?.textContent).toBe('25:00 left');
    advance(1_000);
    expect(left('c2c-21')?.textContent).toBe('24:59 left');
    // No order of the user's as merchant seen: the poll keeps to the buyer's side.
    expect(asked.c2c).not.toContainEqual({ merchant: true });

    // The user paid; an order on the user's own ad is still unpaid by its buyer: nothing for the user to do.
    push(c2c$, [c2cOrder(21, 'buyer', 2, NOW - 5 * MIN), c2cOrder(23, 'merchant', 1, NOW - 5 * MIN)]);
    expect(region()).toBeNull();
    // The user is a merchant: the stream's poll asks for that side too from now on.
    expect(asked.c2c).toContainEqual({ merchant: true });

    // Its buyer marks it paid: the user must release.
    push(c2c$, [c2cOrder(21, 'buyer', 2, NOW - 5 * MIN), c2cOrder(23, 'merchant', 2, NOW - 5 * MIN)]);
    expect(row('c2c-23').getAttribute('href')).toBe('/pages/assets/c2c/orderDetail?id=23');
    expect(row('c2c-23').textContent).toContain('Release BTC to Ben');
    expect(row('c2c-23').textContent).toContain('Ben marked 123.45 EUR as paid. Release once the money has arrived.');
    // A release has no deadline of the user's: no countdown.
    expect(left('c2c-23')).toBeNull();
    expect(announced()).toBe('Waiting for you: Release BTC to Ben');

    push(c2c$, [c2cOrder(23, 'merchant', 3, NOW - 5 * MIN)]);
    expect(region()).toBeNull();
  });

  it('reuses the tab’s shared streams: one each, whatever it redraws', () => {
    driveClock();
    render(<AwaitingList />);
    push(ieo$, [ieoOrder(7, 'allotted', NOW + 14 * MIN)]);
    advance(5_000);
    expect(asked.ieo).toBe(1);
    expect(asked.c2c).toEqual([undefined]);
  });
});

describe('AwaitingYou', () => {
  it('shows nothing to a guest and asks for nothing', async () => {
    clearSession();
    const { container } = render(<AwaitingYou />);
    // Give a lazy list every chance to load, had it been asked for.
    await act(async () => {
      await import('./AwaitingList');
    });
    expect(container.innerHTML).toBe('');
    expect(asked.ieo).toBe(0);
    expect(asked.c2c).toEqual([]);
  });

  it('loads the list for a logged-in user', async () => {
    setSession('token', {
      id: 5,
      username: 'ana',
      email: null,
      mobile: null,
      area_code: null,
      invite_code: 'X1',
      lang: 'en',
      has_fund_password: true,
      created_at: 1,
    });
    render(<AwaitingYou />);
    // The list subscribes in an effect after its first render: news before that would be lost on a plain subject.
    await waitFor(() => expect(ieo$.observed).toBe(true));
    expect(asked.ieo).toBe(1);
    act(() => {
      ieo$.next([ieoOrder(7, 'allotted', Date.now() + 14 * MIN)]);
    });
    await waitFor(() => expect(region()).not.toBeNull());
  });
});
