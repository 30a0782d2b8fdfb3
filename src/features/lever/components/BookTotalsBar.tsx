import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatPnl, signClass } from '../format';
import { useBookTotals } from '../hooks/useFigures';
import type { FigureBoard } from '../live/figureBoard';

/** The book's sums from the worker (Σ floating P&L, margin held, equity), live with the rows. */
export function BookTotalsBar({ board }: { board: FigureBoard | null }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const totals = useBookTotals(board);
  return (
    <dl className="lever-totals" data-testid="book-totals">
      <div>
        <dt>{t('lever.totals.pnl')}</dt>
        <dd className={signClass(totals?.pnl ?? null)}>{totals ? formatPnl(totals.pnl, lang) : '–'}</dd>
      </div>
      <div>
        <dt>{t('lever.totals.margin')}</dt>
        <dd>{totals ? formatAmount(totals.margin, lang) : '–'}</dd>
      </div>
      <div>
        <dt>{t('lever.totals.equity')}</dt>
        <dd>{totals?.equity ? formatAmount(totals.equity, lang) : '–'}</dd>
      </div>
    </dl>
  );
}
