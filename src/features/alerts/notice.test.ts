import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PriceAlert } from '../../../protocol/alerts';
import { startI18n } from '../../lib/i18n';
import { toasts } from '../../state/toasts';
import { ALERTS_PATH, alertFired } from './notice';

const fired: PriceAlert = {
  id: 3,
  symbol: 'BTC',
  quote: 'USDT',
  side: 'above',
  price: '65000.00',
  state: 'fired',
  created_at: 1_700_000_000_000,
  fired: { seq: 12, ts: 1_700_000_001_000, price: '65000.50', batch_id: 4, hash: 'a'.repeat(64) },
};
const text = 'BTC reached 65,000.50 USDT – your alert at or above 65,000.00 USDT';

/** The page in the background or not, notifications allowed or not, and the worker's registration recording. */
function environment(visibility: DocumentVisibilityState, permission: NotificationPermission) {
  const showNotification = vi.fn(async (_title: string, _options?: NotificationOptions) => {});
  vi.spyOn(document, 'visibilityState', 'get').mockReturnValue(visibility);
  vi.stubGlobal('Notification', { permission });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: async () => ({ showNotification }) },
  });
  return showNotification;
}

describe('the notice of a fired price alert', () => {
  beforeAll(async () => {
    await startI18n('en');
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    toasts.items.splice(0);
  });

  it('shows in the app; in the foreground the system shows nothing', async () => {
    const show = environment('visible', 'granted');
    await alertFired(fired);
    expect(toasts.items.map((t) => t.text)).toEqual([text]);
    expect(show).not.toHaveBeenCalled();
  });

  it('in the background, once allowed, also through the service worker: one per alert, opening the list', async () => {
    const show = environment('hidden', 'granted');
    await alertFired(fired);
    expect(toasts.items.map((t) => t.text)).toEqual([text]);
    expect(show).toHaveBeenCalledTimes(1);
    expect(show.mock.calls[0]?.[0]).toBe('Price alert: BTC');
    expect(show.mock.calls[0]?.[1]).toMatchObject({ body: text, tag: 'price-alert-3', data: { url: ALERTS_PATH } });
  });

  it('in the background without permission only in the app; an event that is no fired alert shows nothing', async () => {
    const show = environment('hidden', 'default');
    await alertFired(fired);
    expect(show).not.toHaveBeenCalled();
    toasts.items.splice(0);
    await alertFired({ ...fired, fired: null });
    await alertFired({ id: 'x' });
    expect(toasts.items).toEqual([]);
  });
});
