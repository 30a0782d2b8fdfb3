import type { ReactElement, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { BankCard } from '../../../../protocol/bank-cards';

/** A bound bank card as its owner sees it: bank, masked card number, holder, SWIFT and masked IBAN. */
export function BankCardView({ card, actions }: { card: BankCard; actions?: ReactNode }): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="bank-card">
      <div className="bank-card-head">
        <span className="bank-card-bank">{card.bank_name}</span>
        <span className="bank-card-branch">{card.branch_name}</span>
      </div>
      <p className="bank-card-number">
        <span className="visually-hidden">{t('bankCards.field.card_number')} </span>
        <span>{card.card_number}</span>
      </p>
      <dl className="bank-card-meta">
        <div>
          <dt>{t('bankCards.cardholder')}</dt>
          <dd>{card.cardholder_name}</dd>
        </div>
        <div>
          <dt>{t('bankCards.swiftShort')}</dt>
          <dd>{card.swift_code}</dd>
        </div>
        <div>
          <dt>{t('bankCards.iban')}</dt>
          <dd>{card.iban}</dd>
        </div>
      </dl>
      {actions ? <div className="bank-card-actions">{actions}</div> : null}
    </div>
  );
}
