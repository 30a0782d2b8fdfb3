import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearCache, STORAGE_KEYS } from './storage';

/** A fresh copy of the module, as a new page load reads it from storage. */
const load = async () => {
  vi.resetModules();
  return import('./order-confirmation');
};

beforeEach(() => localStorage.clear());

describe('order confirmation setting', () => {
  it('confirms every product by default', async () => {
    const { confirmsOrders } = await load();
    expect(confirmsOrders('lever')).toBe(true);
    expect(confirmsOrders('spot')).toBe(true);
  });

  it('turns one product off, keeps the other, and remembers it on the next load', async () => {
    const first = await load();
    first.setConfirmOrders('lever', false);
    expect(first.confirmsOrders('lever')).toBe(false);
    expect(first.confirmsOrders('spot')).toBe(true);
    const next = await load();
    expect(next.confirmsOrders('lever')).toBe(false);
    expect(next.confirmsOrders('spot')).toBe(true);
    next.setConfirmOrders('lever', true);
    expect(localStorage.getItem(STORAGE_KEYS.skipConfirm)).toBeNull();
    expect((await load()).confirmsOrders('lever')).toBe(true);
  });

  it('survives clearing the cache, as the other settings do', async () => {
    (await load()).setConfirmOrders('spot', false);
    localStorage.setItem('quotes.cache', '[]');
    await clearCache();
    expect(localStorage.getItem('quotes.cache')).toBeNull();
    expect((await load()).confirmsOrders('spot')).toBe(false);
  });

  it('ignores what it does not know in storage', async () => {
    localStorage.setItem(STORAGE_KEYS.skipConfirm, 'options,spot,<script>');
    const { orderConfirmation } = await load();
    expect(orderConfirmation.skip).toEqual(['spot']);
  });
});
