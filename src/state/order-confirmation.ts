import { proxy } from 'valtio';
import { readStorage, STORAGE_KEYS, writeStorage } from './storage';

/** The products with a confirmation sheet: lever opens and closes, spot market orders. */
export const CONFIRMED_PRODUCTS = ['lever', 'spot'] as const;
export type ConfirmedProduct = (typeof CONFIRMED_PRODUCTS)[number];

/**
 * The trader's choice, per product, to send money-moving orders without the confirmation sheet; none by default
 * (every product confirms). Apart from the shell's settings: only the trading pages and the settings page read it,
 * so it travels in their chunks.
 */
export const orderConfirmation = proxy<{ skip: readonly ConfirmedProduct[] }>({
  skip: CONFIRMED_PRODUCTS.filter((p) => (readStorage(STORAGE_KEYS.skipConfirm) ?? '').split(',').includes(p)),
});

/** Whether `product`'s orders show the confirmation sheet before they are sent. */
export const confirmsOrders = (product: ConfirmedProduct): boolean => !orderConfirmation.skip.includes(product);

export function setConfirmOrders(product: ConfirmedProduct, on: boolean): void {
  const others = orderConfirmation.skip.filter((p) => p !== product);
  orderConfirmation.skip = on ? others : [...others, product];
  writeStorage(STORAGE_KEYS.skipConfirm, orderConfirmation.skip.length ? orderConfirmation.skip.join(',') : null);
}
