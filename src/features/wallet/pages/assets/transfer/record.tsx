import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchTransfers } from '../../../../../../core/api/wallet';
import { typeName, typeShort } from '../../../../../components/assets/format';
import { PagedLines } from '../../../../../components/assets/PagedLines';
import { Icon } from '../../../../../components/Icon';
import { Page } from '../../../../../components/Page';
import { PullToRefresh } from '../../../../../components/PullToRefresh';
import { keys } from '../../../../../data/keys';
import { usePagedList } from '../../../../../data/usePagedList';
import { formatDateTime } from '../../../../../lib/format';
import { Amount } from '../../../components/Amount';
import '../../../wallet.css';
import { formatBalanceOf } from '../../../../../lib/figures';

/** The user's transfers between account types (assets/transfer/record), newest first. */
export default function TransferRecordPage(): ReactElement {
  const { t, i18n } = useTranslation();
  const list = usePagedList(keys.transfers, (beforeId) => fetchTransfers(beforeId));
  const lang = i18n.language;

  return (
    <Page title={t('assets.transfer.recordTitle')}>
      <PullToRefresh onRefresh={list.reload}>
        <PagedLines
          list={{ ...list, itemCount: list.items.length }}
          empty={{ icon: 'sort', text: t('assets.transfer.none') }}
        >
          {list.items.map((r) => (
            <li key={r.id} className="line-row" data-testid="transfer-line">
              <div className="line-row-main">
                <span className="asset-line-title asset-route">
                  <span className="visually-hidden">
                    {t('assets.transfer.route', { from: t(typeName(r.from)), to: t(typeName(r.to)) })}
                  </span>
                  <span aria-hidden="true">{t(typeShort(r.from))}</span>
                  <Icon name="chevron" size={14} />
                  <span aria-hidden="true">{t(typeShort(r.to))}</span>
                </span>
                <span className="asset-line-sub">{formatDateTime(r.created_at, lang)}</span>
              </div>
              <div className="asset-line-end">
                <Amount text={`${formatBalanceOf(r.amount, r.currency, lang)} ${r.currency}`} />
                <span className="asset-line-sub">{t('assets.transfer.completed')}</span>
              </div>
            </li>
          ))}
        </PagedLines>
      </PullToRefresh>
    </Page>
  );
}
