import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchOptionContracts } from '../../../../core/api/options';
import type { OptionAccount, OptionContract } from '../../../../protocol/options';
import { LoadingOrFailed } from '../../../components/StateView';
import { need } from '../../../data/query';
import { formatDateTime } from '../../../lib/format';
import { formatTickPrice } from '../format';
import { usePriceScale } from '../hooks/usePriceScale';
import { optionKeys } from '../keys';
import { contractResultText, resultClass } from '../result';

/** The book's latest settled contracts (refreshed by every contract change), each linking to its detail. */
export function RecentResults({ book }: { book: OptionAccount }): ReactElement {
  const { t } = useTranslation();
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
            <ResultRow key={c.id} contract={c} />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * One result: what the contract made or lost (not what it paid back), and the entry and exit prices that decided it,
 * at the instrument's tick.
 */
function ResultRow({ contract: c }: { contract: OptionContract }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const priceScale = usePriceScale(c.symbol);
  const price = (tick: OptionContract['entry']) => (tick ? formatTickPrice(tick.price, lang, priceScale) : '–');
  return (
    <li className="option-result card" data-state={c.state} data-testid={`result-${c.id}`}>
      <Link to="/pages/option/info" search={{ id: c.id }} className="option-result-link">
        <span className="option-row-head">
          <span className={c.direction === 'up' ? 'change-up' : 'change-down'}>
            {t(`options.${c.direction}`)} · {c.symbol}/USDT
          </span>
          <span className={`option-badge is-${c.state}`}>{t(`options.state.${c.state}`)}</span>
        </span>
        <dl className="option-facts">
          <div>
            <dt>{t('options.row.entry')}</dt>
            <dd data-testid="result-entry">{price(c.entry)}</dd>
          </div>
          <div>
            <dt>{t('options.row.exit')}</dt>
            <dd data-testid="result-exit">{price(c.exit)}</dd>
          </div>
          <div>
            <dt>{t('options.result.label')}</dt>
            <dd className={resultClass(c)} data-testid="result-amount">
              {contractResultText(c, t, lang) ?? '–'}
            </dd>
          </div>
        </dl>
        <span className="option-muted">{formatDateTime(c.settled_at ?? c.created_at, lang)}</span>
      </Link>
    </li>
  );
}
