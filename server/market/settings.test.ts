import { describe, expect, it } from 'vitest';
import { DEFAULT_MARKET_SEED, readMarketSettings } from '../main';

describe('market settings from the environment', () => {
  it('reads MARKET_SEED and MARKET_ALWAYS_OPEN with safe defaults', () => {
    expect(readMarketSettings({})).toEqual({ seed: DEFAULT_MARKET_SEED, alwaysOpen: false });
    expect(readMarketSettings({ MARKET_SEED: ' demo ', MARKET_ALWAYS_OPEN: '1' })).toEqual({
      seed: 'demo',
      alwaysOpen: true,
    });
    expect(readMarketSettings({ MARKET_SEED: '', MARKET_ALWAYS_OPEN: '0' })).toEqual({
      seed: DEFAULT_MARKET_SEED,
      alwaysOpen: false,
    });
  });
});
