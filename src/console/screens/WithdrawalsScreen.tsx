import { useQuery } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { OpsWithdrawal } from '../../../protocol/ops-console';
import { opsCall, opsQuery } from '../api';
import { Decision, Facts, formatTime, ListState, ScreenHead, StateBadge } from '../parts';

const QUERY_KEY = ['ops', 'withdrawals'] as const;

/** Withdrawals waiting for review: approve pays the frozen amount out, reject releases it (with a reason). */
export function WithdrawalsScreen(): ReactElement {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: QUERY_KEY,
    queryFn: ({ signal }) => opsQuery('ops/withdrawals', {}, signal).then((d) => d.items),
  });
  return (
    <>
      <ScreenHead
        title={t('console.nav.withdrawals')}
        intro={t('console.withdrawals.intro')}
        onRefresh={() => void query.refetch()}
        busy={query.isFetching}
      />
      <ListState query={query} empty={t('console.withdrawals.empty')}>
        {(items) => (
          <ul className="ops-cards">
            {items.map((w) => (
              <WithdrawalCard key={w.id} withdrawal={w} />
            ))}
          </ul>
        )}
      </ListState>
    </>
  );
}

function WithdrawalCard({ withdrawal: w }: { withdrawal: OpsWithdrawal }): ReactElement {
  const { t } = useTranslation();
  const what = t('console.withdrawals.item', { id: w.id });
  const money = `${w.amount} ${w.coin}`;
  return (
    <li className="ops-card">
      <header className="ops-card-head">
        <h2 className="ops-card-title">{what}</h2>
        <StateBadge state={w.state} />
      </header>
      <Facts
        items={[
          [t('console.common.user'), `${w.username} (#${w.user_id})`],
          [t('console.withdrawals.amount'), <strong key="amount">{money}</strong>],
          [t('console.withdrawals.fee'), `${w.fee} ${w.coin}`],
          [t('console.withdrawals.to'), <code key="to">{`${w.chain} ${w.address}`}</code>],
          ...(w.remark ? ([[t('console.withdrawals.remark'), w.remark]] as const) : []),
          [t('console.common.submitted'), formatTime(w.created_at)],
        ]}
      />
      <Decision
        what={what}
        confirm={t('console.withdrawals.approveConfirm', { money, address: w.address })}
        approve={() => opsCall('ops/withdrawals/approve', { id: String(w.id) })}
        reject={(reason) => opsCall('ops/withdrawals/reject', { id: String(w.id), reason })}
        queryKey={QUERY_KEY}
      />
    </li>
  );
}
