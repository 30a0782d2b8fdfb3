import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchDeposits, fetchWithdrawals } from '../../../../../../core/api/funding';
import type { DepositRecord, WithdrawalRecord } from '../../../../../../protocol/funding';
import { EmptyState } from '../../../../../components/assets/EmptyState';
import { formatBalance } from '../../../../../components/assets/format';
import { LoadMore } from '../../../../../components/assets/LoadMore';
import { Page } from '../../../../../components/Page';
import { Segmented } from '../../../../../components/Segmented';
import { LoadingOrFailed } from '../../../../../components/StateView';
import { keys } from '../../../../../data/keys';
import { loadFailed, need } from '../../../../../data/query';
import { usePagedList } from '../../../../../data/usePagedList';
import { useQueryParam } from '../../../../../hooks/hooks';
import { formatDateTime } from '../../../../../lib/format';
import { errorText } from '../../../../../lib/i18n';
import { StateBadge } from '../../../components/StateBadge';
import '../../../funding.css';

type Tab = 'deposits' | 'withdrawals';

function Reason({ reason }: { reason: string | null }) {
  const { t } = useTranslation();
  if (!reason) return null;
  return (
    <p className="funding-reason" data-testid="funding-reason">
      {t('funding.fields.reason')}: {reason}
    </p>
  );
}

function DepositRow({ d }: { d: DepositRecord }): ReactElement {
  const { t, i18n } = useTranslation();
  return (
    <li className="funding-record" data-testid="deposit-row">
      <div className="funding-record-head">
        <strong>
          +{formatBalance(d.amount, i18n.language, 0)} {d.coin}
        </strong>
        <StateBadge state={d.state} />
      </div>
      <p className="muted">
        {d.method === 'bank'
          ? t('funding.fields.cardLast4', { last4: d.card_last4 ?? '' })
          : `${d.chain} · ${d.hash?.slice(0, 10)}…${d.hash?.slice(-6)}`}
      </p>
      <p className="muted">{formatDateTime(d.created_at, i18n.language)}</p>
      <Reason reason={d.reason} />
    </li>
  );
}

function WithdrawalRow({ w }: { w: WithdrawalRecord }): ReactElement {
  const { i18n } = useTranslation();
  return (
    <li>
      <Link
        to="/pages/assets/withdraw/detail"
        search={{ id: w.id }}
        className="funding-record funding-record-link"
        data-testid="withdrawal-row"
      >
        <div className="funding-record-head">
          <strong>
            −{formatBalance(w.amount, i18n.language)} {w.coin}
          </strong>
          <StateBadge state={w.state} />
        </div>
        <p className="muted funding-record-address">
          {w.chain} · {w.address}
        </p>
        <p className="muted">{formatDateTime(w.created_at, i18n.language)}</p>
        <Reason reason={w.reason} />
      </Link>
    </li>
  );
}

function Records({ tab }: { tab: Tab }): ReactElement {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Both lists stay current through the account events (src/data/account-events.ts).
  const deposits = usePagedList(keys.deposits, (before) => fetchDeposits({}, before));
  const withdrawals = usePagedList(keys.withdrawals, (before) => fetchWithdrawals({}, before));
  const list = tab === 'deposits' ? deposits : withdrawals;
  return (
    <div className="funding">
      <Segmented
        label={t('funding.records.title')}
        value={tab}
        options={[
          { value: 'deposits', label: t('funding.records.deposits') },
          { value: 'withdrawals', label: t('funding.records.withdrawals') },
        ]}
        onChange={(v) => void navigate({ to: '/pages/assets/withdraw/detail', search: { tab: v }, replace: true })}
      />
      {list.state !== 'ready' ? (
        <LoadingOrFailed failed={list.state === 'error'} onRetry={() => void list.reload()} />
      ) : list.items.length === 0 ? (
        <EmptyState icon="clock" text={t('funding.records.empty')} />
      ) : (
        <>
          <ul className="funding-records" data-testid={`records-${tab}`}>
            {tab === 'deposits'
              ? deposits.items.map((d) => <DepositRow key={d.id} d={d} />)
              : withdrawals.items.map((w) => <WithdrawalRow key={w.id} w={w} />)}
          </ul>
          <LoadMore hasMore={list.hasMore} busy={list.loadingMore} onMore={() => void list.loadMore()} />
        </>
      )}
    </div>
  );
}

function WithdrawalDetail({ id }: { id: number }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  // Live: an account event about this withdrawal (or a reconnect) invalidates it (src/data/account-events.ts).
  const detail = useQuery({ queryKey: keys.withdrawal(id), queryFn: () => need(fetchWithdrawals({ id }, null, 1)) });
  const data = detail.data;
  if (!data) return <LoadingOrFailed failed={loadFailed(detail)} onRetry={() => void detail.refetch()} />;
  const w = data.items[0];
  if (!w) return <EmptyState icon="clock" text={errorText('fundingRecordNotFound')} />;
  return (
    <div className="funding" data-testid="withdrawal-detail">
      <section className="card funding-detail-head">
        <StateBadge state={w.state} />
        <strong className="funding-detail-amount">
          {formatBalance(w.amount, lang)} {w.coin}
        </strong>
        <p className="muted">
          {w.state === 'pending'
            ? t('funding.detail.pendingText')
            : w.state === 'passed'
              ? t('funding.detail.passedText')
              : t('funding.detail.rejectedText')}
        </p>
        <p className="funding-detail-address">
          <span className="visually-hidden">{t('funding.withdraw.address')}: </span>
          <code>{w.address}</code>
        </p>
        <Reason reason={w.reason} />
      </section>
      <dl className="kv card">
        <dt>{t('funding.chain')}</dt>
        <dd>{w.chain}</dd>
        <dt>{t('funding.fields.fee')}</dt>
        <dd>
          {formatBalance(w.fee, lang)} {w.coin}
        </dd>
        <dt>{t('funding.fields.total')}</dt>
        <dd>
          {formatBalance(w.total, lang)} {w.coin}
        </dd>
        {w.remark ? (
          <>
            <dt>{t('funding.fields.remark')}</dt>
            <dd className="funding-wrap">{w.remark}</dd>
          </>
        ) : null}
        <dt>{t('funding.fields.created')}</dt>
        <dd>{formatDateTime(w.created_at, lang)}</dd>
        {w.reviewed_at ? (
          <>
            <dt>{t('funding.fields.reviewed')}</dt>
            <dd>{formatDateTime(w.reviewed_at, lang)}</dd>
          </>
        ) : (
          <>
            <dt>{t('funding.fields.arrival')}</dt>
            <dd>{t('funding.withdraw.arrival')}</dd>
          </>
        )}
      </dl>
      <Link to="/pages/assets/withdraw/detail" search={{ tab: 'withdrawals' }} className="btn btn-secondary btn-block">
        {t('funding.records.view')}
      </Link>
    </div>
  );
}

/**
 * Withdrawal details (assets/withdraw/detail?id=): one withdrawal's state, live. Without an id: the deposit and
 * withdrawal records (charge_mention/log2, log3) in two tabs (`?tab=deposits|withdrawals`), updated live.
 */
export default function WithdrawDetailPage(): ReactElement {
  const { t } = useTranslation();
  const rawId = useQueryParam('id') ?? '';
  const id = /^[1-9]\d{0,9}$/.test(rawId) ? Number(rawId) : null;
  const tab: Tab = useQueryParam('tab') === 'deposits' ? 'deposits' : 'withdrawals';
  return (
    <Page title={id !== null ? t('funding.detail.title') : t('funding.records.title')}>
      {id !== null ? <WithdrawalDetail id={id} /> : <Records tab={tab} />}
    </Page>
  );
}
