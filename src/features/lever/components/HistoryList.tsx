import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchLeverPositions } from '../../../../core/api/lever';
import { negateText, signOf } from '../../../../core/decimal-text';
import { LEVER_CURRENCY, type LeverAccount, type LeverPosition } from '../../../../protocol/lever';
import { Button } from '../../../components/Button';
import { LoadingOrFailed } from '../../../components/StateView';
import { usePagedList } from '../../../data/usePagedList';
import { formatDateTime, formatMoney, formatPrice } from '../../../lib/format';
import { signClass } from '../format';
import { leverKeys } from '../keys';
import { RowHead } from './RowHead';

/**
 * The book's closed and cancelled positions, newest first, paged by cursor: each says why it ended (by the user,
 * take-profit, stop-loss or liquidation; cancelled by the user, for want of a tick or of margin), and a closed one
 * its result with the fees it paid. Every position change refreshes it (the lever area is invalidated).
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
          <dt>{t('lever.row.ended')}</dt>
          <dd>{formatDateTime(p.time_to_close_position ?? p.updated_at, lang)}</dd>
        </div>
      </dl>
      <ClosedResult position={p} />
      <Link to="/pages/lever/info" search={{ id: p.id }} className="lever-link">
        {t('lever.row.details')}
      </Link>
    </li>
  );
}

/**
 * A closed position's result as a receipt: realised P&L, the open and close fees it paid (as the minus they are),
 * what a liquidation left to the insurance fund (or the gap the fund bore), and the net, which is their sum and
 * what the position moved of the user's money. Two decimals cut toward zero, each with its sign and unit; the
 * exact figures are on the detail page. Nothing for a cancelled order: it never opened.
 */
function ClosedResult({ position: p }: { position: LeverPosition }): ReactElement | null {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  if (p.phase !== 'closed' || p.realized_pnl === null || p.total_profit_or_loss === null) return null;
  const money = (value: string) => formatMoney(value, LEVER_CURRENCY, lang, { signed: true });
  const cost = (value: string | null) => (value === null ? '–' : money(negateText(value)));
  // A liquidation leaves margin to the fund; any close at a tick past the liquidation price has the fund bear the gap.
  const insurance = p.insurance !== null && signOf(p.insurance) !== 0 ? p.insurance : null;
  const rows: { key: string; label: string; value: string; className?: string }[] = [
    { key: 'pnl', label: t('lever.row.realized'), value: money(p.realized_pnl), className: signClass(p.realized_pnl) },
    { key: 'open-fee', label: t('lever.row.openFee'), value: cost(p.open_fee) },
    { key: 'close-fee', label: t('lever.row.closeFee'), value: cost(p.close_fee) },
  ];
  if (insurance !== null) {
    rows.push({
      key: 'insurance',
      label: t(signOf(insurance) < 0 ? 'lever.row.insuranceCovered' : 'lever.row.insurance'),
      value: cost(insurance),
    });
  }
  const net = p.total_profit_or_loss;
  return (
    <dl className="lever-breakdown" data-testid="history-result">
      {rows.map((row) => (
        <div key={row.key} data-testid={`result-${row.key}`}>
          <dt>{row.label}</dt>
          <dd className={row.className}>{row.value}</dd>
        </div>
      ))}
      <div className="is-net" data-testid="result-net">
        <dt>{t('lever.row.net')}</dt>
        <dd className={signClass(net)}>{money(net)}</dd>
      </div>
    </dl>
  );
}
