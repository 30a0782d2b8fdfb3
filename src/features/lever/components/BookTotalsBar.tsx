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
    const draw = () => {
      const totals = figures.getTotals();
      writeCell(pnl.current, totals ? formatUsdt(totals.pnl, lang) : '–', signClass(totals?.pnl ?? null));
      writeCell(margin.current, totals ? formatUsdt(totals.margin, lang) : '–');
      writeCell(equity.current, totals?.equity ? formatUsdt(totals.equity, lang) : '–');
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
