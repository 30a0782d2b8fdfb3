import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatVolume, formatVolumeOf } from './volume';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('formatVolume', () => {
  it("shortens with the locale's compact notation, cut to two decimals", () => {
    expect(formatVolume('1234567', 'en')).toBe('1.23M');
    expect(formatVolume('1239999', 'en')).toBe('1.23M');
    expect(formatVolume('999999', 'en')).toBe('999.99K');
    expect(formatVolume('1234567890', 'en')).toBe('1.23B');
    expect(formatVolume('1234567', 'de')).toBe('1,23\u00a0Mio.');
    expect(formatVolume('1234567', 'ja')).toBe('123.45万');
    expect(formatVolume('1234567', 'zh')).toBe('123.45万');
  });

  it('shows small values as they are, up to two decimals', () => {
    expect(formatVolume('999.999', 'en')).toBe('999.99');
    expect(formatVolume('12.5', 'de')).toBe('12,5');
    expect(formatVolume('0', 'en')).toBe('0');
  });

  it('shows a value the locale does not abbreviate whole, so a German row does not wrap', () => {
    expect(formatVolume('196994.07', 'de')).toBe('196.994');
    expect(formatVolume('196994.07', 'en')).toBe('196.99K');
    expect(formatVolume('1000.5', 'de')).toBe('1000');
    expect(formatVolume('999.5', 'de')).toBe('999,5');
  });

  it('logs and returns 0 on bad input', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(formatVolume('abc', 'en')).toBe('0');
    expect(warn).toHaveBeenCalledOnce();
  });

  it('carries its unit, never parted from the figure', () => {
    expect(formatVolumeOf('1234567', 'BTC', 'en')).toBe('1.23M\u00a0BTC');
    expect(formatVolumeOf('196994.07', 'ETH', 'de')).toBe('196.994\u00a0ETH');
  });
});
