import { act, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { Quote } from '../../../../protocol/market';
import { flatQuote } from '../../../test-support/quotes';
import { FrameWriter } from '../live/frameWriter';
import { type QuoteRow, QuoteTable } from './QuoteTable';

vi.mock('@tanstack/react-router', () => ({
  Link: ({ children, className }: { children: ReactNode; className?: string }) => (
    <a href="/" className={className}>
      {children}
    </a>
  ),
}));

const quote = (symbol: string, last: string, change_pct: string): Quote =>
  flatQuote(symbol, last, { change_pct, volume: '1500' });
const rowsOf = (...quotes: Quote[]): QuoteRow[] => quotes.map((q) => ({ quote: q, info: undefined, favourite: false }));
const board = (...quotes: Quote[]) => new Map(quotes.map((q) => [q.symbol, q]));

function setup() {
  const frames: (() => void)[] = [];
  const writer = new FrameWriter<Quote>(
    (callback) => frames.push(callback),
    () => {},
  );
  const frame = () => act(() => frames.splice(0).forEach((f) => void f()));
  return { writer, frame };
}

const cell = (container: HTMLElement, symbol: string, selector: string) =>
  container.querySelector(`.quote-row[data-symbol="${symbol}"] ${selector}`);

describe('QuoteTable', () => {
  it('shows live values from the writer: filled on mount, then once a frame, never overwritten by a render', () => {
    const { writer, frame } = setup();
    const first = [quote('BTC', '100', '1.5'), quote('ETH', '10', '-2')];
    writer.update(board(...first));
    const table = (rows: QuoteRow[]) => (
      <QuoteTable rows={rows} sort={null} onSort={() => {}} stale={false} writer={writer} />
    );
    const { container, rerender } = render(table(rowsOf(...first)));
    expect(cell(container, 'BTC', '[data-testid="last"]')?.textContent).toBe('100.00');
    expect(cell(container, 'BTC', '.quote-vol')?.textContent).toBe('market.vol 1.5K\u00a0BTC');
    const badge = cell(container, 'ETH', '.change');
    expect(badge?.textContent).toBe('-2.00%');
    expect(badge?.className).toBe('change change-down change-filled');

    writer.update(board(quote('BTC', '101', '1.5'), quote('ETH', '11', '0.5')));
    writer.update(board(quote('BTC', '102', '1.5'), quote('ETH', '12', '0.5')));
    frame();
    expect(cell(container, 'BTC', '[data-testid="last"]')?.textContent).toBe('102.00');
    expect(badge?.textContent).toBe('+0.50%');
    expect(badge?.className).toBe('change change-up change-filled');

    // A render with older quotes (a resort snapshot) reorders the rows but keeps the newest values.
    rerender(table(rowsOf(...[...first].reverse())));
    expect([...container.querySelectorAll('.quote-row')].map((r) => r.getAttribute('data-symbol'))).toEqual([
      'ETH',
      'BTC',
    ]);
    expect(cell(container, 'BTC', '[data-testid="last"]')?.textContent).toBe('102.00');
    expect(cell(container, 'ETH', '.change')).toBe(badge);
    expect(badge?.textContent).toBe('+0.50%');
  });
});
