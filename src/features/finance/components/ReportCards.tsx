import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { FinanceReport } from '../../../../protocol/finance';
import { scaleOf } from '../../../components/assets/format';
import { formatAmount } from '../format';

/** The user's totals, one card per currency, over both families. */
export function ReportCards({ report }: { report: FinanceReport }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <ul className="finance-cards">
      {report.currencies.map((c) => (
        <li key={c.currency} className="card finance-report" data-testid={`finance-report-${c.currency}`}>
          <div className="finance-card-head">
            <span className="finance-card-name">{c.currency}</span>
          </div>
          <p className="finance-report-main">
            <span className="finance-rate-label">{t('finance.overview.principal')}</span>
            <span className="finance-big">{formatAmount(c.principal, lang, scaleOf(c.principal))}</span>
          </p>
          <dl className="kv finance-kv">
            <dt>{t('finance.overview.incomeTotal')}</dt>
            <dd>{formatAmount(c.income_total, lang, scaleOf(c.income_total))}</dd>
            <dt>{t('finance.overview.incomeYesterday')}</dt>
            <dd>{formatAmount(c.income_yesterday, lang, scaleOf(c.income_yesterday))}</dd>
            <dt>{t('finance.overview.running')}</dt>
            <dd>{c.running}</dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}
