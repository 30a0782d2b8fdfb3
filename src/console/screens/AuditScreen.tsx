import { useInfiniteQuery } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { OpsAuditEntry } from '../../../protocol/ops-console';
import { Button } from '../../components/Button';
import { opsQuery } from '../api';
import { formatTime, ListState, ScreenHead } from '../parts';

const PAGE = 50;

/** The operators' audit log, newest first, 50 at a time (admins). */
export function AuditScreen(): ReactElement {
  const { t } = useTranslation();
  const query = useInfiniteQuery({
    queryKey: ['ops', 'audit'],
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) =>
      opsQuery(
        'ops/audit',
        { limit: String(PAGE), ...(pageParam === null ? {} : { before_id: String(pageParam) }) },
        signal,
      ),
    getNextPageParam: (last) => last.next_before_id,
  });
  const entries = query.data?.pages.flatMap((p) => p.items);
  return (
    <>
      <ScreenHead
        title={t('console.nav.audit')}
        intro={t('console.audit.intro')}
        onRefresh={() => void query.refetch()}
        busy={query.isFetching && !query.isFetchingNextPage}
      />
      <ListState query={{ ...query, data: entries }} empty={t('console.audit.empty')}>
        {(items) => (
          <>
            <ol className="ops-audit">
              {items.map((e) => (
                <AuditRow key={e.id} entry={e} />
              ))}
            </ol>
            {query.hasNextPage ? (
              <Button
                variant="secondary"
                className="ops-more"
                busy={query.isFetchingNextPage}
                onClick={() => void query.fetchNextPage()}
              >
                {t('console.audit.more')}
              </Button>
            ) : null}
          </>
        )}
      </ListState>
    </>
  );
}

/** The detail as `key: value` pairs (what the action recorded: reason, user, amount, address ...). */
const detailText = (detail: Record<string, unknown>) =>
  Object.entries(detail)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' · ');

function AuditRow({ entry: e }: { entry: OpsAuditEntry }): ReactElement {
  const { t } = useTranslation();
  const detail = detailText(e.detail);
  return (
    <li className="ops-audit-row">
      <time className="ops-audit-at" dateTime={new Date(e.at).toISOString()}>
        {formatTime(e.at)}
      </time>
      <span className="ops-audit-operator">
        <span className="ops-sr">{t('console.audit.operator')}: </span>
        {e.operator}
      </span>
      <code className="ops-audit-action">{e.action}</code>
      <span className="ops-audit-subject">
        {e.subject_type} {e.subject_id}
      </span>
      {detail ? <span className="ops-audit-detail">{detail}</span> : null}
    </li>
  );
}
