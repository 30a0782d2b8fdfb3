import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchLedgerLog } from '../../../../../core/api/wallet';
import { ACCOUNT_TYPES, type AccountType } from '../../../../../protocol/wallet';
import { Page } from '../../../../app/Page';
import { EmptyState } from '../../../../components/assets/EmptyState';
import { typeShort } from '../../../../components/assets/format';
import { LoadMore } from '../../../../components/assets/LoadMore';
import { Button } from '../../../../components/Button';
import { Spinner } from '../../../../components/Controls';
import { PullToRefresh } from '../../../../components/PullToRefresh';
import { Segmented } from '../../../../components/Segmented';
import { keys } from '../../../../data/keys';
import { usePagedList } from '../../../../data/usePagedList';
import { LedgerLineRow } from '../../components/LedgerLineRow';
import '../../wallet.css';

type Filter = 'all' | AccountType;

/** The user's whole ledger history (assets/record), newest first, one account type at a time or all. */
export default function AssetRecordPage(): ReactElement {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<Filter>('all');
  const type = filter === 'all' ? undefined : filter;
  const list = usePagedList(keys.ledger(type), (beforeId) => fetchLedgerLog({ type }, beforeId));

  return (
    <Page title={t('assets.recordTitle')}>
      <PullToRefresh onRefresh={list.reload}>
        <div className="asset-filter">
          <Segmented
            label={t('assets.filterType')}
            value={filter}
            options={[
              { value: 'all' as const, label: t('assets.all') },
              ...ACCOUNT_TYPES.map((v) => ({ value: v, label: t(typeShort(v)) })),
            ]}
            onChange={setFilter}
          />
        </div>
        {list.state === 'loading' ? (
          <div className="center">
            <Spinner label={t('common.loading')} />
          </div>
        ) : list.state === 'error' ? (
          <EmptyState icon="alert" text={t('common.loadFailed')}>
            <Button variant="secondary" onClick={() => void list.reload()}>
              {t('common.retry')}
            </Button>
          </EmptyState>
        ) : list.items.length === 0 ? (
          <EmptyState icon="document" text={t('assets.noRecords')} />
        ) : (
          <>
            <ul className="asset-lines">
              {list.items.map((line) => (
                <LedgerLineRow key={line.id} line={line} />
              ))}
            </ul>
            <LoadMore hasMore={list.hasMore} busy={list.loadingMore} onMore={() => void list.loadMore()} />
          </>
        )}
      </PullToRefresh>
    </Page>
  );
}
