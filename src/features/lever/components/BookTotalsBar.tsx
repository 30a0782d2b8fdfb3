import { type ReactElement, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { FigureBoard } from '../../../../machines/lever/figure-board';
import { formatUsdt, signClass } from '../format';
import { writeCell } from '../live-cells';

/**
 * The book's sums from the worker (Σ floating P&L, margin held, equity), live with the rows: written into their
 * cells when the worker publishes, so the bar does not render with each price.
 */
export function BookTotalsBar({ figures }: { figures: FigureBoard }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const pnl = useRef<HTMLElement>(null);
  const margin = useRef<HTMLElement>(null);
  const equity = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    // Three figures side by side on a 320 px phone: the unit may go under its number rather than past the screen.
    const usdt = (value: string) => formatUsdt(value, lang).replace('\u00a0', ' ');
    const draw = () => {
      const totals = figures.getTotals();
      writeCell(pnl.current, totals ? usdt(totals.pnl) : '–', signClass(totals?.pnl ?? null));
      writeCell(margin.current, totals ? usdt(totals.margin) : '–');
      writeCell(equity.current, totals?.equity ? usdt(totals.equity) : '–');
    };
    draw();
    return figures.subscribeTotals(draw);
  }, [figures, lang]);
  return (
    <dl className="lever-totals" data-testid="book-totals">
      <div>
        <dt>{t('lever.totals.pnl')}</dt>
        <dd ref={pnl}>–</dd>
      </div>
      <div>
        <dt>{t('lever.totals.margin')}</dt>
        <dd ref={margin}>–</dd>
      </div>
      <div>
        <dt>{t('lever.totals.equity')}</dt>
        <dd ref={equity}>–</dd>
      </div>
    </dl>
  );
}
