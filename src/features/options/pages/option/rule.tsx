import { useQuery } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchOptionTerms } from '../../../../../core/api/options';
import { houseEdge, optionPayout } from '../../../../../protocol/rules/options';
import { fromUnits, pow10 } from '../../../../../protocol/rules/spot';
import { Icon } from '../../../../components/Icon';
import { Page } from '../../../../components/Page';
import { LoadingOrFailed } from '../../../../components/StateView';
import { loadFailed, need } from '../../../../data/query';
import { formatAmount, formatRatioPercent } from '../../format';
import { optionKeys } from '../../keys';
import '../../options.css';

/**
 * option/rule (an addition under /pages/option/, SPEC 2 lists no rule page for options; RULES.md asks every product
 * for one): the option rules in plain words with the numbers in force from microtrade/seconds, and each period's
 * house edge computed with the published houseEdge(), so the page can never disagree with the rule code.
 */
export default function OptionRulePage(): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const terms = useQuery({ queryKey: optionKeys.terms, queryFn: () => need(fetchOptionTerms()) });
  const currency = terms.data?.currencies[0];
  const first = currency?.periods[0];
  return (
    <Page title={t('options.rules.title')} className="option-page option-rules">
      {!currency ? (
        <LoadingOrFailed failed={loadFailed(terms)} onRetry={() => void terms.refetch()} />
      ) : (
        <>
          <section className="card option-rule-text">
            <h2 className="option-title">{t('options.rules.howTitle')}</h2>
            <ol>
              <li>{t('options.rules.pick')}</li>
              <li>{t('options.rules.entry')}</li>
              <li>{t('options.rules.exit')}</li>
              <li>{t('options.rules.win')}</li>
              <li>{t('options.rules.tie')}</li>
              <li>{t('options.rules.refund')}</li>
              <li>{t('options.rules.cancel')}</li>
              <li>{t('options.rules.record')}</li>
              <li>{t('options.rules.simulator')}</li>
              <li>{t('options.rules.verify')}</li>
            </ol>
          </section>
          <section className="card option-rule-terms">
            <h2 className="option-title">{t('options.rules.termsTitle', { currency: currency.currency })}</h2>
            <table className="option-table" data-testid="rule-terms">
              <thead>
                <tr>
                  <th scope="col">{t('options.rules.period')}</th>
                  <th scope="col">{t('options.rules.ratio')}</th>
                  <th scope="col">{t('options.rules.minStake')}</th>
                  <th scope="col">{t('options.rules.edge')}</th>
                </tr>
              </thead>
              <tbody>
                {currency.periods.map((p) => (
                  <tr key={p.seconds} data-testid={`rule-${p.seconds}`}>
                    {/* data-label: the column's name beside each value where a phone stacks the row (options.css). */}
                    <td>{t('options.seconds', { n: p.seconds })}</td>
                    <td data-label={t('options.rules.ratio')}>{formatRatioPercent(p.ratio, lang)}</td>
                    <td data-label={t('options.rules.minStake')}>
                      {formatAmount(p.min_stake, lang)} {currency.currency}
                    </td>
                    <td data-label={t('options.rules.edge')}>{formatRatioPercent(houseEdge(p.ratio), lang)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="option-muted">{t('options.rules.edgeNote')}</p>
            <p className="option-muted">
              {t('options.rules.example', {
                stake: formatAmount('100', lang),
                currency: currency.currency,
                ratio: formatRatioPercent(first?.ratio ?? '0', lang),
                paid: formatAmount(
                  fromUnits(
                    optionPayout(100n * pow10(currency.scale), first?.ratio ?? '0', 'won', currency.scale),
                    currency.scale,
                  ),
                  lang,
                ),
              })}
            </p>
          </section>
          <p className="option-risk" data-testid="risk-note">
            <Icon name="alert" size={16} />
            {t('options.rules.risk')}
          </p>
        </>
      )}
    </Page>
  );
}
