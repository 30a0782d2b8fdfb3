import { describe, expect, it } from 'vitest';
import { type Trigger, TriggerBook, type TriggerDirection } from './trigger-book';

const t = (id: string, direction: TriggerDirection, price: bigint, symbol = 'BTC'): Trigger<string> => ({
  id,
  symbol,
  direction,
  price,
  item: `item-${id}`,
});
const ids = (triggers: Trigger<unknown>[]) => triggers.map((x) => x.id);

describe('TriggerBook', () => {
  it('fires at equality in both directions', () => {
    const book = new TriggerBook<string>();
    book.add(t('buy', 'atOrBelow', 100n));
    book.add(t('sell', 'atOrAbove', 200n));
    expect(ids(book.fire('BTC', 101n))).toEqual([]);
    expect(ids(book.fire('BTC', 199n))).toEqual([]);
    expect(ids(book.fire('BTC', 100n))).toEqual(['buy']);
    expect(ids(book.fire('BTC', 200n))).toEqual(['sell']);
    expect(book.size).toBe(0);
  });

  it('never fires the other direction', () => {
    const book = new TriggerBook<string>();
    book.add(t('below', 'atOrBelow', 100n));
    book.add(t('above', 'atOrAbove', 100n));
    // A tick far above fires only atOrAbove, far below only atOrBelow.
    expect(ids(book.fire('BTC', 1_000n))).toEqual(['above']);
    expect(ids(book.fire('BTC', 1_000n))).toEqual([]);
    expect(ids(book.fire('BTC', 1n))).toEqual(['below']);
  });

  it('fires only the ticked symbol', () => {
    const book = new TriggerBook<string>();
    book.add(t('btc', 'atOrBelow', 100n, 'BTC'));
    book.add(t('eth', 'atOrBelow', 100n, 'ETH'));
    expect(ids(book.fire('ETH', 50n))).toEqual(['eth']);
    expect(ids(book.fire('SOL', 50n))).toEqual([]);
    expect(book.has('btc')).toBe(true);
  });

  it('returns the best price first, atOrBelow before atOrAbove, and keeps the item', () => {
    const book = new TriggerBook<string>();
    book.add(t('b90', 'atOrBelow', 90n));
    book.add(t('b110', 'atOrBelow', 110n));
    book.add(t('b100', 'atOrBelow', 100n));
    book.add(t('a100', 'atOrAbove', 100n));
    book.add(t('a80', 'atOrAbove', 80n));
    book.add(t('a120', 'atOrAbove', 120n));
    expect(ids(book.peek('BTC', 100n))).toEqual(['b110', 'b100', 'a80', 'a100']);
    const fired = book.fire('BTC', 100n);
    expect(ids(fired)).toEqual(['b110', 'b100', 'a80', 'a100']);
    expect(fired[0]?.item).toBe('item-b110');
    expect([...['b90', 'a120']].every((id) => book.has(id))).toBe(true);
    expect(book.size).toBe(2);
  });

  it('keeps insertion order among many triggers at one level', () => {
    const book = new TriggerBook<string>();
    const order = Array.from({ length: 500 }, (_, i) => `o${(i * 7919) % 500}`);
    for (const id of order) book.add(t(id, 'atOrAbove', 50n));
    book.add(t('later-better', 'atOrAbove', 49n));
    expect(ids(book.fire('BTC', 50n))).toEqual(['later-better', ...order]);
  });

  it('removes by id, also from a shared level, and says whether it had the id', () => {
    const book = new TriggerBook<string>();
    book.add(t('x', 'atOrBelow', 100n));
    book.add(t('y', 'atOrBelow', 100n));
    book.add(t('z', 'atOrBelow', 100n));
    expect(book.remove('y')).toBe(true);
    expect(book.remove('y')).toBe(false);
    expect(book.remove('never')).toBe(false);
    expect(book.has('y')).toBe(false);
    expect(book.size).toBe(2);
    expect(ids(book.fire('BTC', 100n))).toEqual(['x', 'z']);
    // An emptied book forgets the symbol and still answers.
    expect(book.size).toBe(0);
    expect(ids(book.peek('BTC', 100n))).toEqual([]);
    book.add(t('again', 'atOrBelow', 100n));
    expect(ids(book.fire('BTC', 100n))).toEqual(['again']);
  });

  it('replaces a trigger added again under the same id, moving it to its new place', () => {
    const book = new TriggerBook<string>();
    book.add(t('a', 'atOrBelow', 100n));
    book.add(t('b', 'atOrBelow', 100n));
    book.add({ ...t('a', 'atOrBelow', 100n), item: 'new' });
    expect(book.size).toBe(2);
    expect(book.peek('BTC', 100n).map((x) => [x.id, x.item])).toEqual([
      ['b', 'item-b'],
      ['a', 'new'],
    ]);
    book.add(t('a', 'atOrAbove', 300n, 'ETH'));
    expect(ids(book.fire('BTC', 0n))).toEqual(['b']);
    expect(ids(book.fire('ETH', 300n))).toEqual(['a']);
  });

  it('lists its ids and clears', () => {
    const book = new TriggerBook<string>();
    book.add(t('a', 'atOrBelow', 100n));
    book.add(t('b', 'atOrAbove', 200n, 'ETH'));
    const listed = book.ids();
    for (const id of listed) book.remove(id);
    expect(listed).toEqual(['a', 'b']);
    expect(book.size).toBe(0);
    book.add(t('c', 'atOrBelow', 100n));
    book.clear();
    expect(book.size).toBe(0);
    expect(book.has('c')).toBe(false);
    expect(ids(book.fire('BTC', 0n))).toEqual([]);
  });

  it('does not follow a caller changing its object after adding it', () => {
    const book = new TriggerBook<string>();
    const trigger = t('m', 'atOrBelow', 100n);
    book.add(trigger);
    trigger.price = 5n;
    expect(book.remove('m')).toBe(true);
    expect(book.size).toBe(0);
    expect(ids(book.peek('BTC', 0n))).toEqual([]);
  });

  it('agrees with a naive scan over thousands of random adds, removes and ticks', () => {
    // xorshift32: seeded, so a failure replays; the step number is in the message.
    let state = 0x9e3779b9;
    const rand = (n: number) => {
      state ^= state << 13;
      state >>>= 0;
      state ^= state >>> 17;
      state ^= state << 5;
      state >>>= 0;
      return state % n;
    };
    const symbols = ['BTC', 'ETH', 'SOL'];
    const book = new TriggerBook<number>();
    /** The model: every resting trigger with the sequence number of its last add. */
    const naive = new Map<string, { trigger: Trigger<number>; seq: number }>();
    let seq = 0;
    const scan = (symbol: string, price: bigint) => {
      const hits = [...naive.values()].filter(
        ({ trigger: x }) => x.symbol === symbol && (x.direction === 'atOrBelow' ? price <= x.price : price >= x.price),
      );
      const rank = (d: TriggerDirection) => (d === 'atOrBelow' ? 0 : 1);
      hits.sort((a, b) => {
        const x = a.trigger;
        const y = b.trigger;
        if (x.direction !== y.direction) return rank(x.direction) - rank(y.direction);
        if (x.price !== y.price) return (x.direction === 'atOrBelow' ? x.price > y.price : x.price < y.price) ? -1 : 1;
        return a.seq - b.seq;
      });
      return hits.map((h) => h.trigger.id);
    };
    let firedTotal = 0;
    for (let step = 0; step < 20_000; step++) {
      const op = rand(10);
      const symbol = symbols[rand(symbols.length)] as string;
      // Prices on a small grid so that levels are shared and equality comes up often.
      const price = BigInt(900 + rand(200));
      if (op < 5) {
        const id = `t${rand(3000)}`;
        const trigger: Trigger<number> = {
          id,
          symbol,
          direction: rand(2) ? 'atOrBelow' : 'atOrAbove',
          price,
          item: step,
        };
        book.add(trigger);
        naive.set(id, { trigger, seq: seq++ });
      } else if (op < 7) {
        const id = `t${rand(3000)}`;
        expect(book.remove(id), `step ${step}`).toBe(naive.delete(id));
      } else {
        const expected = scan(symbol, price);
        expect(ids(book.peek(symbol, price)), `peek step ${step}`).toEqual(expected);
        if (op < 9) {
          const fired = book.fire(symbol, price);
          expect(ids(fired), `fire step ${step}`).toEqual(expected);
          for (const x of fired) naive.delete(x.id);
          firedTotal += fired.length;
        }
      }
      expect(book.size, `size step ${step}`).toBe(naive.size);
    }
    for (const id of naive.keys()) expect(book.has(id)).toBe(true);
    // The run must actually have exercised firing, or the comparison above proved little.
    expect(firedTotal).toBeGreaterThan(1000);
  });
});
