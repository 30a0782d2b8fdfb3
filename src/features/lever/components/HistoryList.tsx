import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchLeverPositions } from '../../../../core/api/lever';
import type { LeverAccount, LeverPosition } from '../../../../protocol/lever';
import { Button } from '../../../components/Button';
import { LoadingOrFailed } from '../../../components/StateView';
import { usePagedList } from '../../../data/usePagedList';
import { formatDateTime, formatPrice } from '../../../lib/format';
import { formatAmount, formatPnl, signClass } from '../format';
import { leverKeys } from '../keys';
import { RowHead } from './RowHead';

/**
 * The book's closed and cancelled positions, newest first, paged by cursor: each says why it ended (by the user,
 * take-profit, stop-loss or liquidation; cancelled by the user, for want of a tick or of margin). Every position
 * change refreshes it (the lever area is invalidated).
 */
export default function HistoryList({
  book,
  scaleOf,
}: {
  book: LeverAccount;
  scaleOf: (symbol: string) => number;
}): ReactElement {
  const { t } = useTranslation();
  const list = usePagedList(leverKeys.history(book), async (beforeId) => {
    const page = await fetchLeverPositions({ list: 'history', account: book, beforeId });
    return page === false ? false : { items: page.positions, next_before_id: page.next_before_id };
  });
  if (list.state !== 'ready') {
    return <LoadingOrFailed failed={list.state === 'error'} onRetry={() => void list.reload()} />;
  }
  if (list.items.length === 0) return <p className="lever-empty">{t('lever.history.empty')}</p>;
  return (
    <>
      <ul className="lever-list" data-testid="history">
        {list.items.map((p) => (
          <HistoryRow key={p.id} position={p} priceScale={scaleOf(p.symbol)} />
        ))}
      </ul>
      {list.hasMore ? (
        <Button variant="ghost" block busy={list.loadingMore} onClick={() => void list.loadMore()}>
          {t('lever.history.more')}
        </Button>
      ) : null}
    </>
  );
}

function HistoryRow({ position: p, priceScale }: { position: LeverPosition; priceScale: number }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const liquidated = p.phase === 'closed' && p.close_reason === 'liquidation';
  const phase = liquidated ? 'liquidated' : p.phase === 'closed' ? 'closed' : 'cancelled';
  const reason = p.close_reason ?? p.cancel_reason ?? null;
  const reasonKey =
    p.close_reason !== null
      ? (`lever.closeReason.${p.close_reason}` as const)
      : p.cancel_reason !== null
        ? (`lever.cancelReason.${p.cancel_reason}` as const)
        : null;
  const price = (v: string | null) => (v ? formatPrice(v, lang, priceScale) : '–');
  return (
    <li
      className={`lever-row card${liquidated ? ' is-liquidated' : ''}`}
      data-testid={`history-${p.id}`}
      data-phase={phase}
      data-reason={reason ?? ''}
    >
      <RowHead position={p} labelKey={`lever.phase.${phase}`} />
      {reasonKey ? (
        <p className="lever-reason" data-testid="history-reason">
          {t(reasonKey)}
        </p>
      ) : null}
      <dl className="lever-facts">
        <div>
          <dt>{t('lever.row.entry')}</dt>
          <dd>{price(p.entry_price ?? p.limit_price)}</dd>
        </div>
        <div>
          <dt>{t('lever.row.exit')}</dt>
          <dd>{price(p.close_offset_price)}</dd>
        </div>
        <div>
          <dt>{t('lever.row.lots')}</dt>
          <dd>{p.lots}</dd>
        </div>
        <div>
          <dt>{t('lever.row.totalPnl')}</dt>
          <dd className={signClass(p.total_profit_or_loss)}>
            {p.total_profit_or_loss === null ? '–' : formatPnl(p.total_profit_or_loss, lang)}
          </dd>
        </div>
        <div>
          <dt>{t('lever.row.fees')}</dt>
          <dd>{formatAmount(p.commission, lang)}</dd>
        </div>
        <div>
          <dt>{t('lever.row.ended')}</dt>
          <dd>{formatDateTime(p.time_to_close_position ?? p.updated_at, lang)}</dd>
        </div>
      </dl>
      <Link to="/pages/lever/info" search={{ id: p.id }} className="lever-link">
        {t('lever.row.details')}
      </Link>
    </li>
  );
}
