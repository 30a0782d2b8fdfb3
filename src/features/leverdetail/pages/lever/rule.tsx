import { useQuery } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchLeverDeal } from '../../../../../core/api/lever';
import type { LeverDeal } from '../../../../../protocol/lever';
import {
  initialMargin,
  isolatedLiquidationPrice,
  type LeverTerms,
  tradeFee,
} from '../../../../../protocol/rules/lever';
import { fromUnits, pow10 } from '../../../../../protocol/rules/spot';
import { Icon } from '../../../../components/Icon';
import { Page } from '../../../../components/Page';
import { LoadingOrFailed } from '../../../../components/StateView';
import { loadFailed, need } from '../../../../data/query';
import { formatNumber } from '../../../../lib/format';
import '../../../lever/lever.css';
import '../../detail.css';

/** The worked example: 10 lots of the first instrument at 10× at a round price near its usual level. */
const EXAMPLE_LOTS = 10n;
const EXAMPLE_LEVERAGE = 10;

/**
 * lever/rule (an addition: RULES.md publishes each product's rules in the app): margin, liquidation, fees and how
 * triggers use the recorded price, in plain words, with the terms in force from lever/deal and a worked example
 * computed by the published rule code (protocol/rules/lever.ts), so the page can never disagree with it.
 */
export default function LeverRulePage(): ReactElement {
  const { t } = useTranslation();
  const deal = useQuery({ queryKey: ['lever', 'deal', 'real'], queryFn: () => need(fetchLeverDeal('real')) });
  return (
    <Page title={t('leverdetail.rule.title')} className="lever-rule-page">
      {!deal.data ? (
        <LoadingOrFailed failed={loadFailed(deal)} onRetry={() => void deal.refetch()} />
      ) : (
        <RuleBody deal={deal.data} />
      )}
    </Page>
  );
}

function RuleBody({ deal }: { deal: LeverDeal }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const first = deal.instruments[0];
  const pct = (rate: string) => `${formatNumber(fromUnitsPercent(rate), lang, { min: 2, max: 4 })} %`;
  return (
    <>
      <section className="card lever-rule-text">
        <h2>{t('leverdetail.rule.howTitle')}</h2>
        <ol>
          <li>{t('leverdetail.rule.open')}</li>
          <li>{t('leverdetail.rule.margin')}</li>
          <li>{t('leverdetail.rule.pnl')}</li>
          <li>{t('leverdetail.rule.isolated')}</li>
          <li>{t('leverdetail.rule.cross')}</li>
          <li>{t('leverdetail.rule.triggers')}</li>
          <li>{t('leverdetail.rule.liquidation')}</li>
          <li>{t('leverdetail.rule.fees')}</li>
          <li>{t('leverdetail.rule.record')}</li>
          <li>{t('leverdetail.rule.simulator')}</li>
        </ol>
      </section>
      {first ? (
        <section className="card">
          <h2>{t('leverdetail.rule.termsTitle')}</h2>
          <p className="lever-muted" data-testid="rule-rates">
            {t('leverdetail.rule.rates', { mmr: pct(first.mmr), fee: pct(first.fee_rate) })}
          </p>
          <table className="lever-table" data-testid="rule-terms">
            <thead>
              <tr>
                <th scope="col">{t('leverdetail.rule.instrument')}</th>
                <th scope="col">{t('leverdetail.rule.lot')}</th>
                <th scope="col">{t('leverdetail.rule.maxLeverage')}</th>
              </tr>
            </thead>
            <tbody>
              {deal.instruments.map((i) => (
                <tr key={i.symbol} data-testid={`rule-${i.symbol}`}>
                  <td>{i.symbol}/USDT</td>
                  <td>
                    {formatNumber(i.contract_size, lang, { min: 0, max: 8 })} {i.symbol}
                  </td>
                  <td>{i.leverages.at(-1) ?? '–'}×</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Example instrument={first} scale={deal.scale} />
        </section>
      ) : null}
      <p className="lever-risk" data-testid="risk-note">
        <Icon name="alert" size={16} />
        {t('leverdetail.rule.risk')}
      </p>
    </>
  );
}

/** A decimal rate as a percentage, exactly (0.0005 → 0.05). */
function fromUnitsPercent(rate: string): string {
  const [whole = '0', fraction = ''] = rate.split('.');
  const units = BigInt(whole + fraction);
  return fromUnits(units * 100n, fraction.length);
}

function Example({ instrument, scale }: { instrument: LeverDeal['instruments'][number]; scale: number }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const terms: LeverTerms = {
    contractSize: instrument.contract_size,
    mmr: instrument.mmr,
    feeRate: instrument.fee_rate,
    priceScale: instrument.price_scale,
    quoteScale: scale,
  };
  // A round entry price: 1,000 of the quote per unit of the instrument's price step is enough to show the arithmetic.
  const entry = 60_000n * pow10(instrument.price_scale);
  const margin = initialMargin(EXAMPLE_LOTS, entry, EXAMPLE_LEVERAGE, terms);
  const fee = tradeFee(EXAMPLE_LOTS, entry, terms);
  const lp = isolatedLiquidationPrice({ side: 'long', lots: EXAMPLE_LOTS, entry, margin, terms });
  const num = (units: bigint, s: number) => formatNumber(fromUnits(units, s), lang, { min: 2, max: 6 });
  return (
    <p className="lever-muted" data-testid="rule-example">
      {t('leverdetail.rule.example', {
        lots: Number(EXAMPLE_LOTS),
        symbol: instrument.symbol,
        entry: num(entry, instrument.price_scale),
        leverage: EXAMPLE_LEVERAGE,
        margin: num(margin, scale),
        fee: num(fee, scale),
        lp: lp === null ? '--' : num(lp, instrument.price_scale),
      })}
    </p>
  );
}
