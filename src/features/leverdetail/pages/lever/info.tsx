import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchLeverDeal, fetchLeverPosition } from '../../../../../core/api/lever';
import { negateText, signOf } from '../../../../../core/decimal-text';
import { LEVER_CURRENCY, type LeverPosition } from '../../../../../protocol/lever';
import type { RecordedTick } from '../../../../../protocol/price-record';
import { Page } from '../../../../components/Page';
import { EmptyState, LoadingOrFailed } from '../../../../components/StateView';
import { loadFailed, need } from '../../../../data/query';
import { useQueryParam } from '../../../../hooks/hooks';
import { formatDateTime, formatMoney, formatNumber } from '../../../../lib/format';
import { LeverRecheckMark } from '../../components/LeverRecheckMark';
import '../../../lever/lever.css';
import '../../detail.css';

const OPEN = new Set<LeverPosition['phase']>(['waiting', 'pending', 'holding', 'closing']);

/**
 * lever/info?id=: one order or position: its terms, the ticks that opened and closed it (time, price, sequence
 * number), the trigger prices, margin, fees and result, why it closed, and for a closed position the re-check of all
 * of that against the price record with the published rules.
 */
export default function LeverInfoPage(): ReactElement {
  const { t } = useTranslation();
  const raw = useQueryParam('id');
  const id = raw && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : null;
  const position = useQuery({
    queryKey: ['lever', 'position', id ?? 0],
    queryFn: () => need(fetchLeverPosition(id ?? 0)),
    enabled: id !== null,
    // An open position changes with every tick (floating P&L) and with its close: look again while it is open.
    refetchInterval: (q) => (q.state.data && OPEN.has(q.state.data.phase) ? 2_000 : false),
  });
  const account = position.data?.account_type ?? 'real';
  const deal = useQuery({ queryKey: ['lever', 'deal', account], queryFn: () => need(fetchLeverDeal(account)) });
  return (
    <Page title={t('leverdetail.info.title')} className="lever-info-page">
      {id === null ? (
        <EmptyState icon="alert" title={t('leverdetail.info.missing')} />
      ) : !position.data ? (
        <LoadingOrFailed failed={loadFailed(position)} onRetry={() => void position.refetch()} />
      ) : (
        <PositionFacts position={position.data} scale={deal.data?.scale ?? null} />
      )}
    </Page>
  );
}

function PositionFacts({ position: p, scale }: { position: LeverPosition; scale: number | null }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  // The exact figures (every decimal the ledger holds), each with its unit; results and costs signed.
  const money = (value: string | null) =>
    value === null ? '–' : formatMoney(value, LEVER_CURRENCY, lang, { exact: true });
  const result = (value: string | null) =>
    value === null ? '–' : formatMoney(value, LEVER_CURRENCY, lang, { exact: true, signed: true });
  const cost = (value: string | null) => (value === null ? '–' : result(negateText(value)));
  const price = (value: string | null) => (value === null ? '–' : formatNumber(value, lang, { min: 2, max: 8 }));
  const time = (ts: number | null) => (ts === null ? '–' : formatDateTime(ts, lang));
  const tick = (value: RecordedTick | null) =>
    value ? t('leverdetail.info.tick', { price: price(value.price), seq: value.seq, time: time(value.ts) }) : '–';
  const reason = p.close_reason
    ? t(`leverdetail.closeReason.${p.close_reason}`)
    : p.cancel_reason
      ? t(`leverdetail.cancelReason.${p.cancel_reason}`)
      : null;
  const rows: [string, string, string][] = [
    ['order', t('leverdetail.info.order'), p.order_no],
    [
      'book',
      t('leverdetail.info.book'),
      t(p.account_type === 'real' ? 'leverdetail.info.real' : 'leverdetail.info.practice'),
    ],
    [
      'direction',
      t('leverdetail.info.direction'),
      `${t(`leverdetail.info.side.${p.direction}`)} · ${p.symbol}/USDT · ${t(`leverdetail.info.mode.${p.margin_mode}`)}`,
    ],
    [
      'lots',
      t('leverdetail.info.lots'),
      t('leverdetail.info.lotsValue', { count: p.lots, quantity: price(p.quantity), symbol: p.symbol }),
    ],
    ['leverage', t('leverdetail.info.leverage'), `${p.leverage}×`],
    [
      'type',
      t('leverdetail.info.type'),
      p.limit_price ? `${t('leverdetail.info.limit')} ${price(p.limit_price)}` : t('leverdetail.info.market'),
    ],
    ['entry', t('leverdetail.info.entry'), tick(p.entry)],
    ['exit', t('leverdetail.info.exit'), tick(p.exit)],
    ['tp', t('leverdetail.info.takeProfit'), price(p.profit_take_price)],
    ['sl', t('leverdetail.info.stopLoss'), price(p.stop_loss_price)],
    ['lp', t('leverdetail.info.liquidation'), p.Liquidation_Price === null ? '--' : price(p.Liquidation_Price)],
    ['margin', t('leverdetail.info.margin'), money(p.initial_margin)],
    ['added', t('leverdetail.info.added'), money(p.additional_margin)],
    ['floating', t('leverdetail.info.floating'), result(p.floating_profit_or_loss)],
    ['opened', t('leverdetail.info.opened'), time(p.open_position_time)],
    ['closed', t('leverdetail.info.closed'), time(p.time_to_close_position)],
    // The result as a sum: realised P&L, the fees paid (as the minus they are), what a liquidation left to the
    // insurance fund (or the gap it bore), and the net, which is what the position moved of the user's money.
    ['realized', t('leverdetail.info.realized'), result(p.realized_pnl)],
    ['openFee', t('leverdetail.info.openFee'), cost(p.open_fee)],
    ['closeFee', t('leverdetail.info.closeFee'), cost(p.close_fee)],
  ];
  // A liquidation leaves margin to the fund; any close at a tick past the liquidation price has the fund bear the gap.
  if (p.insurance !== null && signOf(p.insurance) !== 0) {
    const covered = signOf(p.insurance) < 0;
    rows.push([
      'insurance',
      t(covered ? 'leverdetail.info.insuranceCovered' : 'leverdetail.info.insurance'),
      cost(p.insurance),
    ]);
  }
  rows.push(['total', t('leverdetail.info.total'), result(p.total_profit_or_loss)]);
  return (
    <article className="lever-info card" data-testid="position-info" data-phase={p.phase}>
      <p className={`lever-badge is-${p.phase}`} data-testid="info-phase">
        {t(`leverdetail.phase.${p.close_reason === 'liquidation' ? 'liquidated' : p.phase}`)}
        {reason ? ` · ${reason}` : ''}
      </p>
      <dl className="lever-facts-list lever-detail-facts">
        {rows.map(([key, label, value]) => (
          <div key={key} data-testid={`info-${key}`}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {p.close_reason ? (
        <p className="lever-muted" data-testid="info-why">
          {t(`leverdetail.info.why.${p.close_reason}`)}
        </p>
      ) : null}
      {p.phase === 'closed' && scale !== null ? <LeverRecheckMark position={p} scale={scale} /> : null}
      <Link to="/pages/lever/rule" className="lever-link">
        {t('leverdetail.rule.link')}
      </Link>
    </article>
  );
}
