import { describe, expect, it } from 'vitest';
import { INSTRUMENTS } from '../instruments';
import { InstrumentListings } from './registry';

const T0 = Date.UTC(2024, 5, 4, 12, 0, 0);
const STATIC = new Set(INSTRUMENTS.map((i) => i.symbol));

describe('the registry of listed coins', () => {
  const coin = (id: number, symbol: string) => ({ ...(INSTRUMENTS[0] as (typeof INSTRUMENTS)[0]), id, symbol });

  it('registers each coin once, tells its listeners, and refuses clashes', () => {
    const registry = new InstrumentListings((s) => STATIC.has(s));
    const heard: string[] = [];
    const stop = registry.onListed((l) => heard.push(`${l.instrument.symbol}@${l.listedAt}`));
    expect(registry.register(coin(1001, 'BBB'), T0)).toBe(true);
    expect(registry.register(coin(1000, 'AAA'), T0 + 1)).toBe(true);
    expect(registry.register(coin(1000, 'AAA'), T0 + 9)).toBe(false);
    expect(() => registry.register(coin(1002, 'AAA'), T0)).toThrow(/listed already/);
    expect(() => registry.register(coin(1000, 'CCC'), T0)).toThrow(/belongs to AAA/);
    expect(() => registry.register(coin(1003, 'ETH'), T0)).toThrow(/static/);
    expect(heard).toEqual([`BBB@${T0}`, `AAA@${T0 + 1}`]);
    expect(registry.all().map((l) => l.instrument.symbol)).toEqual(['AAA', 'BBB']);
    stop();
    registry.register(coin(1004, 'DDD'), T0);
    expect(heard).toHaveLength(2);
  });

  it('tells every listener even when one throws, then throws', () => {
    const registry = new InstrumentListings(() => false);
    const heard: string[] = [];
    registry.onListed(() => {
      throw new Error('listener down');
    });
    registry.onListed((l) => heard.push(l.instrument.symbol));
    expect(() => registry.register(coin(1000, 'AAA'), T0)).toThrow(/listener down/);
    expect(heard).toEqual(['AAA']);
    expect(registry.get('AAA')).toBeDefined();
  });
});
