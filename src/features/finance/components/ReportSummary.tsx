import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { FinanceReport } from '../../../../protocol/finance';
import { scaleOf } from '../../../components/assets/format';
import { Icon } from '../../../components/Icon';
import { formatAmount } from '../format';

/** The logged-in user's running principal and interest received, per currency, as a link to the overview. */
export function ReportSummary({ report }: { report: FinanceReport }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <Link to="/pages/finance/index" className="card finance-summary is-action" data-testid="finance-summary">
      <div className="finance-card-head">
        <span className="finance-card-name">{t('finance.summary.title')}</span>
        <Icon name="chevron" size={18} className="finance-card-chevron" />
      </div>
      {report.currencies.length === 0 ? (
        <p className="muted finance-flat">{t('finance.summary.none')}</p>
      ) : (
        <dl className="kv finance-kv">
          {report.currencies.map((c) => (
            <SummaryRows key={c.currency} row={c} lang={lang} />
          ))}
        </dl>
      )}
    </Link>
  );
}

function SummaryRows({ row, lang }: { row: FinanceReport['currencies'][number]; lang: string }): ReactElement {
  const { t } = useTranslation();
  return (
    <>
      <dt>{t('finance.summary.principal', { currency: row.currency })}</dt>
      <dd>{formatAmount(row.principal, lang, scaleOf(row.principal))}</dd>
      <dt>{t('finance.summary.income', { currency: row.currency })}</dt>
      <dd>{formatAmount(row.income_total, lang, scaleOf(row.income_total))}</dd>
    </>
  );
}
