import { describe, expect, it, vi } from 'vitest';
import type { Quote } from '../../../../protocol/market';
import * as format from '../../../lib/format';
import { flatQuote } from '../../../test-support/quotes';
import { changeCell, changeDirection, lastCell, QuoteTexts, volumeCell } from './quoteCells';
import * as volume from './volume';

vi.mock('../../../lib/format', { spy: true });
vi.mock('./volume', { spy: true });

const quote = (last: string, change_pct: string, volume: string, symbol = 'BTC'): Quote =>
  flatQuote(symbol, last, { change_pct, volume });

describe('quote cells', () => {
  it('show what the React cells showed: price at the instrument scale, signed change with its direction, volume', () => {
    const texts = new QuoteTexts('en');
    const q = quote('65162.3456', '1.3', '1234567');
    expect(lastCell(texts, 2)(q)).toEqual({ text: '65,162.34' });
    expect(lastCell(texts, 4)(q)).toEqual({ text: '65,162.3456' });
    expect(volumeCell(texts)(q)).toEqual({ text: '1.23M' });
    expect(changeCell(texts, true)(q)).toEqual({
      text: '+1.30%',
      className: 'change change-up change-filled',
      data: { dir: 'up' },
    });
    expect(changeCell(texts)(quote('1', '-0.57', '1'))).toEqual({
      text: '-0.57%',
      className: 'change change-down',
      data: { dir: 'down' },
    });
    expect(changeCell(new QuoteTexts('de'))(quote('1', '0', '1'))).toMatchObject({
      text: '0,00\u00a0%', // a no-break space, as in de
      data: { dir: 'flat' },
    });
  });

  it('format a field again only when its raw value changed, per instrument', () => {
    const texts = new QuoteTexts('en');
    vi.mocked(format.formatPrice).mockClear();
    vi.mocked(format.formatChange).mockClear();
    vi.mocked(volume.formatVolume).mockClear();
    texts.last(quote('1.5', '1', '10'), 2);
    texts.last(quote('1.5', '2', '20'), 2); // a new quote with the same price
    texts.last(quote('1.5', '1', '10', 'ETH'), 2); // another instrument
    expect(format.formatPrice).toHaveBeenCalledTimes(2);
    texts.last(quote('1.6', '2', '20'), 2);
    expect(format.formatPrice).toHaveBeenCalledTimes(3);

    texts.change(quote('1', '1', '10'));
    texts.change(quote('2', '1', '20'));
    expect(format.formatChange).toHaveBeenCalledTimes(1);
    texts.volume(quote('1', '1', '10'));
    texts.volume(quote('1', '2', '10'));
    expect(volume.formatVolume).toHaveBeenCalledTimes(1);
  });

  it('tell a change direction from exact decimals; a bad value is flat', () => {
    expect(changeDirection('0.001')).toBe('up');
    expect(changeDirection('-0.001')).toBe('down');
    expect(changeDirection('-0')).toBe('flat');
    expect(changeDirection('x')).toBe('flat');
  });
});
