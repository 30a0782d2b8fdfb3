import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { lazy, type ReactElement, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchOptionContract, fetchOptionTerms } from '../../../../../core/api/options';
import type { OptionContract } from '../../../../../protocol/options';
import { Page } from '../../../../components/Page';
import { EmptyState, LoadingOrFailed } from '../../../../components/StateView';
import { loadFailed, need } from '../../../../data/query';
import { useQueryParam } from '../../../../hooks/hooks';
import { formatMoney } from '../../../../lib/format';
import { OptionRecheckMark } from '../../components/OptionRecheckMark';
import { formatRatioPercent, formatSecondTime, formatTickPrice } from '../../format';
import { usePriceScale } from '../../hooks/usePriceScale';
import { optionKeys } from '../../keys';
import { contractResultText, resultClass } from '../../result';
import '../../options.css';

const SETTLED = new Set<OptionContract['state']>(['won', 'lost', 'flat', 'refunded']);

/** The recorded ticks from entry to exit, drawn with the chart library: it loads after the contract's facts. */
const SettledTicks = lazy(() => import('../../components/SettledTicks'));

/**
 * option/info?id=: one contract: its terms, the entry and exit ticks with time and price, the rule that decided it,
 * the result (what it made or lost, exact) and the payout, the recorded ticks from entry to exit drawn with both
 * marked, and the re-check of all of that against the price record.
 */
export default function OptionInfoPage(): ReactElement {
  const { t } = useTranslation();
  const raw = useQueryParam('id');
  const id = raw && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : null;
  const contract = useQuery({
    queryKey: optionKeys.contract(id ?? 0),
    queryFn: () => need(fetchOptionContract(id ?? 0)),
    enabled: id !== null,
    // A contract that is still open changes with its entry and its settlement: look again while it runs.
    refetchInterval: (q) =>
      q.state.data && !SETTLED.has(q.state.data.state) && q.state.data.state !== 'cancelled' ? 2_000 : false,
  });
  const terms = useQuery({ queryKey: optionKeys.terms, queryFn: () => need(fetchOptionTerms()) });
  return (
    <Page title={t('options.info.title')} className="option-page">
      {id === null ? (
        <EmptyState icon="alert" title={t('options.info.missing')} />
      ) : !contract.data ? (
        <LoadingOrFailed failed={loadFailed(contract)} onRetry={() => void contract.refetch()} />
      ) : (
        <ContractFacts
          contract={contract.data}
          scale={terms.data?.currencies.find((c) => c.currency === contract.data.currency)?.scale ?? null}
        />
      )}
    </Page>
  );
}

function ContractFacts({ contract, scale }: { contract: OptionContract; scale: number | null }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const priceScale = usePriceScale(contract.symbol);
  // The ticks that decided the contract, with every decimal the record holds (not cut to SPEC 9's four): the entry and
  // the exit can differ in the fifth decimal, and this page is where a result is re-checked against the record.
  const tick = (label: string, key: string, value: OptionContract['entry']) => (
    <div data-testid={`info-${key}`}>
      <dt>{label}</dt>
      <dd>
        {value
          ? t('options.info.tick', {
              price: formatTickPrice(value.price, lang, priceScale),
              seq: value.seq,
              time: formatSecondTime(value.ts, lang),
            })
          : '–'}
      </dd>
    </div>
  );
  const rows: [string, string, string][] = [
    ['book', t('options.info.book'), t(contract.account === 'real' ? 'options.book.real' : 'options.book.practice')],
    ['direction', t('options.info.direction'), `${t(`options.${contract.direction}`)} · ${contract.symbol}/USDT`],
    ['period', t('options.info.period'), t('options.seconds', { n: contract.seconds })],
    ['ratio', t('options.info.ratio'), formatRatioPercent(contract.ratio, lang)],
    ['stake', t('options.info.stake'), formatMoney(contract.stake, contract.currency, lang, { exact: true })],
    ['bought', t('options.info.bought'), formatSecondTime(contract.created_at, lang)],
    ['expiry', t('options.info.expiry'), contract.expiry_ts ? formatSecondTime(contract.expiry_ts, lang) : '–'],
  ];
  return (
    <article className="option-info card" data-testid="contract-info" data-state={contract.state}>
      <p className={`option-badge is-${contract.state}`} data-testid="info-state">
        {t(`options.state.${contract.state}`)}
      </p>
      <dl className="option-facts option-facts-list">
        {rows.map(([key, label, value]) => (
          <div key={key} data-testid={`info-${key}`}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        {tick(t('options.info.entry'), 'entry', contract.entry)}
        {tick(t('options.info.exit'), 'exit', contract.exit)}
        <div data-testid="info-result">
          <dt>{t('options.result.label')}</dt>
          <dd className={resultClass(contract)}>{contractResultText(contract, t, lang, true) ?? '–'}</dd>
        </div>
        <div data-testid="info-payout">
          <dt>{t('options.info.payout')}</dt>
          <dd>
            {contract.payout === null ? '–' : formatMoney(contract.payout, contract.currency, lang, { exact: true })}
          </dd>
        </div>
      </dl>
      <p className="option-muted" data-testid="info-rule">
        {t(`options.info.rule.${contract.state}`, {
          direction: t(`options.${contract.direction}`),
          ratio: formatRatioPercent(contract.ratio, lang),
        })}
      </p>
      {SETTLED.has(contract.state) && contract.entry && contract.exit ? (
        <Suspense
          fallback={
            <div className="trade-chart" aria-busy="true">
              <span className="spinner trade-chart-spinner" aria-hidden="true" />
            </div>
          }
        >
          <SettledTicks
            contract={{ ...contract, entry: contract.entry, exit: contract.exit }}
            priceScale={priceScale}
          />
        </Suspense>
      ) : null}
      {SETTLED.has(contract.state) && scale !== null ? <OptionRecheckMark contract={contract} scale={scale} /> : null}
      <Link to="/pages/option/rule" className="option-link">
        {t('options.rules.link')}
      </Link>
    </article>
  );
}
