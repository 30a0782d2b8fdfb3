import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchOptionContracts } from '../../../../core/api/options';
import type { OptionAccount } from '../../../../protocol/options';
import { LoadingOrFailed } from '../../../components/StateView';
import { need } from '../../../data/query';
import { formatDateTime } from '../../../lib/format';
import { formatAmount } from '../format';
import { optionKeys } from '../keys';

/** The book's latest settled contracts (refreshed by every contract change), each linking to its detail. */
export function RecentResults({ book }: { book: OptionAccount }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const list = useQuery({
    queryKey: optionKeys.settled(book),
    queryFn: () => need(fetchOptionContracts({ list: 'settled', account: book, limit: 10 })),
  });
  return (
    <section className="option-section" aria-labelledby="option-results-title">
      <h2 className="option-title" id="option-results-title">
        {t('options.results.title')}
      </h2>
      {!list.data ? (
        <LoadingOrFailed failed={list.isError && !list.isFetching} onRetry={() => void list.refetch()} />
      ) : list.data.contracts.length === 0 ? (
        <p className="option-empty">{t('options.results.empty')}</p>
      ) : (
        <ul className="option-list" data-testid="results">
          {list.data.contracts.map((c) => (
            <li key={c.id} className="option-result card" data-state={c.state} data-testid={`result-${c.id}`}>
              <Link to="/pages/option/info" search={{ id: c.id }} className="option-result-link">
                <span className={c.direction === 'up' ? 'change-up' : 'change-down'}>
                  {t(`options.${c.direction}`)} · {c.symbol}
                </span>
                <span className={`option-badge is-${c.state}`}>{t(`options.state.${c.state}`)}</span>
                <span className="option-muted">{formatDateTime(c.settled_at ?? c.created_at, lang)}</span>
                <span>{c.payout === null ? '–' : `${formatAmount(c.payout, lang)} ${c.currency}`}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
