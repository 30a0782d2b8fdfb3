import type { Quote } from '../../../../protocol/market';
import { formatChange, formatPrice } from '../../../lib/format';
import { type ChangeDirection, changeClass, changeDirection } from './change';
import type { CellRender } from './frameWriter';
import { formatVolume } from './volume';

export { type ChangeDirection, changeClass, changeDirection } from './change';

/** Formatted texts of one instrument and the raw values they were formatted from (undefined: not yet). */
interface Texts {
  lastRaw: string | undefined;
  scale: number;
  last: string;
  pctRaw: string | undefined;
  change: string;
  dir: ChangeDirection;
  volumeRaw: string | undefined;
  volume: string;
}

/**
 * One language's formatted quote texts, cached per instrument: a field is formatted again (through lib/format, as
 * everywhere else) only when its raw value changed, so a tick that moves the price does not reformat its volume.
 */
export class QuoteTexts {
  private readonly bySymbol = new Map<string, Texts>();

  constructor(readonly lang: string) {}

  last(quote: Quote, priceScale: number): string {
    const texts = this.of(quote);
    if (texts.lastRaw !== quote.last || texts.scale !== priceScale) {
      texts.lastRaw = quote.last;
      texts.scale = priceScale;
      texts.last = formatPrice(quote.last, this.lang, priceScale);
    }
    return texts.last;
  }

  change(quote: Quote): { text: string; dir: ChangeDirection } {
    const texts = this.of(quote);
    if (texts.pctRaw !== quote.change_pct) {
      texts.pctRaw = quote.change_pct;
      texts.change = formatChange(quote.change_pct, this.lang);
      texts.dir = changeDirection(quote.change_pct);
    }
    return { text: texts.change, dir: texts.dir };
  }

  volume(quote: Quote): string {
    const texts = this.of(quote);
    if (texts.volumeRaw !== quote.volume) {
      texts.volumeRaw = quote.volume;
      texts.volume = formatVolume(quote.volume, this.lang);
    }
    return texts.volume;
  }

  private of(quote: Quote): Texts {
    let texts = this.bySymbol.get(quote.symbol);
    if (!texts) {
      texts = {
        lastRaw: undefined,
        scale: 0,
        last: '',
        pctRaw: undefined,
        change: '',
        dir: 'flat',
        volumeRaw: undefined,
        volume: '',
      };
      this.bySymbol.set(quote.symbol, texts);
    }
    return texts;
  }
}

/** A last-price cell. */
export const lastCell =
  (texts: QuoteTexts, priceScale: number): CellRender<Quote> =>
  (quote) => ({ text: texts.last(quote, priceScale) });

/** A 24 h change badge: its text (signed), colour class and `data-dir`. */
export const changeCell =
  (texts: QuoteTexts, filled = false): CellRender<Quote> =>
  (quote) => {
    const { text, dir } = texts.change(quote);
    return { text, className: changeClass(dir, filled), data: { dir } };
  };

/** A 24 h volume cell. */
export const volumeCell =
  (texts: QuoteTexts): CellRender<Quote> =>
  (quote) => ({ text: texts.volume(quote) });
