import { cleanup } from '@testing-library/react';
import { BehaviorSubject, EMPTY, Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showLivePage } from '../../../test-support/live-page';
import { useSpotLive } from './useSpotLive';

/**
 * The page's side of the live spot book: the hook starts the controller when the page mounts and stops it, with every
 * order machine, when the page leaves. Subjects stand for the app's streams.
 */

vi.mock('../../../../streams/spot/orders', () => ({
  spotOrders: () => ({ open$: new BehaviorSubject([]), changes$: new Subject() }),
}));
vi.mock('../../../../streams/market', () => ({
  coinQuotes: () => ({ freshness: { stale$: new BehaviorSubject(false) } }),
}));
vi.mock('../../../../streams/socket', () => ({ realtime: () => ({ reconnected$: EMPTY }) }));

describe('useSpotLive', () => {
  afterEach(cleanup);

  it('starts the book when the page mounts and stops it, ticket included, when the page leaves', async () => {
    // Spot has one book: the page shows no other.
    const page = await showLivePage(useSpotLive, undefined);
    const live = page.first;
    expect(live.actor.getSnapshot().status).toBe('active');
    const ticket = live.actor.getSnapshot().context.ticket;
    page.leave();
    expect(live.actor.getSnapshot().status).toBe('stopped');
    expect(ticket.getSnapshot().status).toBe('stopped');
  });
});
