import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearCache, STORAGE_KEYS } from './storage';

/** A fresh copy of the module, as a new page load reads it from storage. */
const load = async () => {
  vi.resetModules();
  return import('./chart-indicators');
};

beforeEach(() => localStorage.clear());

describe('chart indicators setting', () => {
  it('draws no indicator by default', async () => {
    expect((await load()).chartIndicators.on).toEqual([]);
  });

  it('remembers the choice in stacking order on the next load, and forgets the key when none is on', async () => {
    const first = await load();
    first.setChartIndicator('rsi', true);
    first.setChartIndicator('ma', true);
    first.setChartIndicator('vol', true);
    expect(first.chartIndicators.on).toEqual(['ma', 'vol', 'rsi']);
    const next = await load();
    expect(next.chartIndicators.on).toEqual(['ma', 'vol', 'rsi']);
    next.setChartIndicator('vol', false);
    expect((await load()).chartIndicators.on).toEqual(['ma', 'rsi']);
    next.setChartIndicator('ma', false);
    next.setChartIndicator('rsi', false);
    expect(localStorage.getItem(STORAGE_KEYS.chartIndicators)).toBeNull();
  });

  it('ignores names it does not know and survives clearing the cache', async () => {
    localStorage.setItem(STORAGE_KEYS.chartIndicators, 'macd,ichimoku,ema');
    expect((await load()).chartIndicators.on).toEqual(['ema', 'macd']);
    await clearCache();
    expect(localStorage.getItem(STORAGE_KEYS.chartIndicators)).toBe('macd,ichimoku,ema');
  });
});
