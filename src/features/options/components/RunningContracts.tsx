import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { standingAt } from '../../../../machines/options/contract.machine';
import type { Quote } from '../../../../protocol/market';
import type { OptionContract } from '../../../../protocol/options';
import { OrderFlow } from '../../../app/OrderFlow';
import { LoadingOrFailed } from '../../../components/StateView';
import { formatPrice } from '../../../lib/format';
import { formatAmount } from '../format';
import { useContractRow } from '../hooks/useContractRow';
import { usePriceScale } from '../hooks/usePriceScale';

/** The open contracts of the book: each counts down on server time and says how it stands at the last price. */
export function RunningContracts({
  contracts,
  quotes,
  now,
  fresh,
}: {
  contracts: OptionContract[] | null;
  quotes: ReadonlyMap<string, Quote>;
  now: number;
  /** The page's price gate: each row's machine follows it. */
  fresh: boolean;
}): ReactElement {
  const { t } = useTranslation();
  return (
    <section className="option-section" aria-labelledby="option-running-title">
      <h2 className="option-title" id="option-running-title">
        {t('options.running.title')}
      </h2>
      {contracts === null ? (
        <LoadingOrFailed failed={false} onRetry={() => {}} />
      ) : contracts.length === 0 ? (
        <p className="option-empty">{t('options.running.empty')}</p>
      ) : (
        <ul className="option-list" data-testid="running">
          {contracts.map((c) => (
            <RunningRow key={c.id} contract={c} last={quotes.get(c.symbol)?.last ?? null} now={now} fresh={fresh} />
          ))}
        </ul>
      )}
    </section>
  );
}

function RunningRow({
  contract,
  last,
  now,
  fresh,
}: {
  contract: OptionContract;
  last: string | null;
  now: number;
  fresh: boolean;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const view = useContractRow(contract, now, fresh);
  const shown = view.contract ?? contract;
  const priceScale = usePriceScale(shown.symbol);
  const standing = view.phase === 'running' ? standingAt(shown, last) : null;
  return (
    <li className="option-row card" data-testid={`contract-${shown.id}`} data-phase={view.phase}>
      <div className="option-row-head">
        <span className={shown.direction === 'up' ? 'change-up' : 'change-down'}>
          {t(`options.${shown.direction}`)} · {shown.symbol}/USDT
        </span>
        <span className="option-badge">{t(view.labelKey)}</span>
      </div>
      <dl className="option-facts">
        <div>
          <dt>{t('options.row.stake')}</dt>
          <dd>
            {formatAmount(shown.stake, lang)} {shown.currency}
          </dd>
        </div>
        <div>
          <dt>{t('options.row.entry')}</dt>
          <dd>{shown.entry ? formatPrice(shown.entry.price, lang, priceScale) : '–'}</dd>
        </div>
        <div>
          <dt>{t('options.row.left')}</dt>
          <dd data-testid="row-countdown">
            {view.secondsLeft === null ? '–' : t('options.seconds', { n: view.secondsLeft })}
          </dd>
        </div>
      </dl>
      {standing ? (
        <p className={`option-standing is-${standing}`}>
          {t(`options.standing.${standing}`)} ·{' '}
          {t('options.standing.against', { price: last ? formatPrice(last, lang, priceScale) : '–' })}
        </p>
      ) : null}
      <Link to="/pages/option/info" search={{ id: shown.id }} className="option-link">
        {t('options.details')}
      </Link>
      <OrderFlow drawing="option-contract" snapshot={view.snapshot} title={t('machineChart.title')} />
    </li>
  );
}
