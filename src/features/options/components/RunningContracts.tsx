import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { OptionContractRef } from '../../../../machines/options/book.machine';
import { standingAt } from '../../../../machines/options/contract.machine';
import type { OptionLive } from '../../../../machines/options/live';
import type { OptionContract } from '../../../../protocol/options';
import { OrderFlow } from '../../../app/OrderFlow';
import { LoadingOrFailed } from '../../../components/StateView';
import { useQuote } from '../../../hooks/useQuote';
import { useServerNow } from '../../../hooks/useServerNow';
import { formatPrice } from '../../../lib/format';
import { COUNTDOWN_MS } from '../countdown';
import { formatAmount } from '../format';
import { useContractActor } from '../hooks/useOptionLive';
import { usePriceScale } from '../hooks/usePriceScale';

/**
 * The open contracts of the book, as its live controller holds them: each row its contract machine, counting down on
 * server time and saying how it stands at its instrument's last price. The list renders when the open contracts
 * change; each row with its own clock and price.
 */
export function RunningContracts({ live }: { live: OptionLive }): ReactElement {
  const { t } = useTranslation();
  const contracts = useSelector(live.actor, (s) => s.context.open);
  const rows = useSelector(live.actor, (s) => s.context.rows);
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
          {contracts.map((c) => {
            const row = rows[c.id];
            return row ? <RunningRow key={c.id} actor={row.ref} contract={c} /> : null;
          })}
        </ul>
      )}
    </section>
  );
}

function RunningRow({ actor, contract }: { actor: OptionContractRef; contract: OptionContract }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const now = useServerNow(true, COUNTDOWN_MS);
  const { view, snapshot } = useContractActor(actor, now);
  const last = useQuote(contract.symbol).quote?.last ?? null;
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
      <OrderFlow drawing="option-contract" snapshot={snapshot} title={t('machineChart.title')} />
    </li>
  );
}
