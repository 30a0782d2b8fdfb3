import { cleanup } from '@testing-library/react';
import { BehaviorSubject, EMPTY, Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showLivePage } from '../../../test-support/live-page';
import { useOptionLive } from './useOptionLive';

/**
 * The page's side of the live option book: the hook starts a controller for the book shown, a new one when the page
 * switches books (the old one stopped, and never handed to the page again), and stops it when the page leaves.
 */

vi.mock('../../../../streams/options/contracts', () => ({
  optionContracts: () => ({ open$: new BehaviorSubject([]), changes$: new Subject() }),
}));
vi.mock('../../../../streams/market', () => ({
  coinQuotes: () => ({ freshness: { stale$: new BehaviorSubject(false) } }),
}));
vi.mock('../../../../streams/socket', () => ({ realtime: () => ({ reconnected$: EMPTY }) }));

describe('useOptionLive', () => {
  afterEach(cleanup);

  it("runs one controller per book shown, stops the old book's on a switch, and stops it when the page leaves", async () => {
    const page = await showLivePage(useOptionLive, 'real');
    expect(page.first.actor.getSnapshot().status).toBe('active');
    // switchTo asserts that the real book's controller is stopped by then and never handed to the page again.
    const simulator = await page.switchTo('simulator');
    expect(simulator.actor.getSnapshot().status).toBe('active');
    page.leave();
    expect(simulator.actor.getSnapshot().status).toBe('stopped');
  });
});
