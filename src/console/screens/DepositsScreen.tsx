import { useQuery } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { OPS_DEPOSIT_PROOF_PATH, type OpsDeposit } from '../../../protocol/ops-console';
import { opsCall, opsQuery } from '../api';
import { Decision, Facts, formatTime, ListState, ReviewImage, ScreenHead, StateBadge } from '../parts';

const QUERY_KEY = ['ops', 'deposits'] as const;

/** Deposits waiting for review: what the user reported, the proof image; approve credits, reject needs a reason. */
export function DepositsScreen(): ReactElement {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: QUERY_KEY,
    queryFn: ({ signal }) => opsQuery('ops/deposits', {}, signal).then((d) => d.items),
  });
  return (
    <>
      <ScreenHead
        title={t('console.nav.deposits')}
        intro={t('console.deposits.intro')}
        onRefresh={() => void query.refetch()}
        busy={query.isFetching}
      />
      <ListState query={query} empty={t('console.deposits.empty')}>
        {(items) => (
          <ul className="ops-cards">
            {items.map((d) => (
              <DepositCard key={d.id} deposit={d} />
            ))}
          </ul>
        )}
      </ListState>
    </>
  );
}

function DepositCard({ deposit: d }: { deposit: OpsDeposit }): ReactElement {
  const { t } = useTranslation();
  const what = t('console.deposits.item', { id: d.id });
  const money = `${d.amount} ${d.coin}`;
  return (
    <li className="ops-card">
      <header className="ops-card-head">
        <h2 className="ops-card-title">{what}</h2>
        <StateBadge state={d.state} />
      </header>
      <Facts
        items={[
          [t('console.common.user'), `${d.username} (#${d.user_id})`],
          [t('console.deposits.amount'), <strong key="amount">{money}</strong>],
          [
            t('console.deposits.method'),
            t(d.method === 'crypto' ? 'console.deposits.crypto' : 'console.deposits.bank'),
          ],
          ...(d.method === 'crypto'
            ? ([
                [t('console.deposits.chain'), d.chain ?? ''],
                [t('console.deposits.hash'), <code key="hash">{d.hash}</code>],
              ] as const)
            : ([[t('console.deposits.card'), `•••• ${d.card_last4 ?? ''}`]] as const)),
          [t('console.common.submitted'), formatTime(d.created_at)],
        ]}
      />
      <ReviewImage path={OPS_DEPOSIT_PROOF_PATH} search={{ id: String(d.id) }} alt={t('console.deposits.proof')} />
      <Decision
        what={what}
        confirm={t('console.deposits.approveConfirm', { money, user: d.username })}
        approve={() => opsCall('ops/deposits/approve', { id: String(d.id) })}
        reject={(reason) => opsCall('ops/deposits/reject', { id: String(d.id), reason })}
        queryKey={QUERY_KEY}
      />
    </li>
  );
}
