import { renderHook } from '@testing-library/react';
import { NEVER, Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QuoteBoard } from '../../streams/quotes';
import { flatQuote } from '../test-support/quotes';

const quote = (symbol: string, last: string, ts: number) => flatQuote(symbol, last, { ts });

// No socket and no poll: only the page's snapshot and the boards the test pushes.
const boards = new Subject<QuoteBoard>();
vi.mock('../../streams/market', () => ({
  coinQuotes: () => ({ board$: boards, freshness: { limitMs: 5_000, touch: () => {} } }),
}));
vi.mock('../../streams/socket', () => ({ realtime: () => ({ topic: () => NEVER }) }));

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

/** A page whose document arrived just now with a snapshot of BTC and ETH. */
async function pageWithSnapshot() {
  vi.resetModules();
  const now = Date.now();
  vi.spyOn(performance, 'timeOrigin', 'get').mockReturnValue(now);
  vi.spyOn(performance, 'getEntriesByType').mockReturnValue([{ responseStart: 0 } as unknown as PerformanceEntry]);
  const element = document.createElement('script');
  element.id = 'tw-market';
  element.type = 'application/json';
  element.textContent = JSON.stringify({
    served_at: now,
    quotes: [quote('BTC', '64000.5', now), quote('ETH', '4460.2', now)],
    instruments: [],
  });
  document.body.append(element);
  return (await import('./useQuote')).useQuote;
}

describe('useQuote', () => {
  it("starts from the page's snapshot, and shows the other instrument's, not the first one's, when it changes", async () => {
    const useQuote = await pageWithSnapshot();
    const { result, rerender } = renderHook(({ symbol }) => useQuote(symbol), { initialProps: { symbol: 'BTC' } });
    expect(result.current.quote?.last).toBe('64000.5');
    rerender({ symbol: 'ETH' });
    expect(result.current.quote?.symbol).toBe('ETH');
    expect(result.current.quote?.last).toBe('4460.2');
  });
});
