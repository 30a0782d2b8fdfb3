import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchLedgerLog } from '../../../../../core/api/wallet';
import { ACCOUNT_TYPES, type AccountType } from '../../../../../protocol/wallet';
import { typeShort } from '../../../../components/assets/format';
import { PagedLines } from '../../../../components/assets/PagedLines';
import { Page } from '../../../../components/Page';
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
        <PagedLines
          list={{ ...list, itemCount: list.items.length }}
          empty={{ icon: 'document', text: t('assets.noRecords') }}
        >
          {list.items.map((line) => (
            <LedgerLineRow key={line.id} line={line} />
          ))}
        </PagedLines>
      </PullToRefresh>
    </Page>
  );
}
