import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { signOf } from '../../../../core/decimal-text';
import type { LedgerLine } from '../../../../protocol/wallet';
import { kindName, typeName } from '../../../components/assets/format';
import { formatBalanceOf } from '../../../lib/figures';
import { formatDateTime } from '../../../lib/format';
import { Amount } from './Amount';

/** One change of one account: what it was, which account, when, and the signed amount. */
export function LedgerLineRow({ line }: { line: LedgerLine }): ReactElement {
  const { t, i18n } = useTranslation();
  const incoming = !line.amount.startsWith('-');
  return (
    <li className="line-row" data-testid="ledger-line">
      <div className="line-row-main">
        <span className="asset-line-title">{t(kindName(line.kind))}</span>
        <span className="asset-line-sub">{t(typeName(line.type))}</span>
      </div>
      <div className="asset-line-end">
        <Amount
          className={incoming ? 'is-up' : 'is-down'}
          text={`${signOf(line.amount) > 0 ? '+' : ''}${formatBalanceOf(line.amount, line.currency, i18n.language)} ${line.currency}`}
        />
        <span className="asset-line-sub">{formatDateTime(line.created_at, i18n.language)}</span>
      </div>
    </li>
  );
}
