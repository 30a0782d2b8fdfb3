import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { fetchBankCards } from '../../../../../../../core/api/bank-cards';
import { useGoBack } from '../../../../../../app/back';
import { Button } from '../../../../../../components/Button';
import { Page } from '../../../../../../components/Page';
import { EmptyState, LoadingOrFailed } from '../../../../../../components/StateView';
import { keys } from '../../../../../../data/keys';
import { loadFailed, need } from '../../../../../../data/query';
import { pickBankCard, picks } from '../../../../../../state/picks';
import { BankCardView } from '../../../../components/BankCardView';
import '../../../../wallet.css';

const ADD_BANK_PATH = '/pages/bankbind/addbank';

/**
 * Choose the bound bank card a bank withdrawal goes to: choosing stores it in `picks.bankCard` and goes back to the
 * withdraw page; a link leads to binding another card.
 */
export default function ChooseBankCardPage(): ReactElement {
  const { t } = useTranslation();
  const goBack = useGoBack();
  const cards = useQuery({ queryKey: keys.bankCards, queryFn: () => need(fetchBankCards()) });
  const data = cards.data;
  const { bankCard: picked } = useSnapshot(picks);

  return (
    <Page title={t('bankCards.chooseTitle')}>
      {!data ? (
        <LoadingOrFailed failed={loadFailed(cards)} onRetry={() => void cards.refetch()} />
      ) : data.length === 0 ? (
        <EmptyState
          icon="card"
          title={t('bankCards.emptyTitle')}
          text={t('bankCards.emptyText')}
          action={
            <Link to={ADD_BANK_PATH} className="btn btn-primary">
              {t('bankCards.add')}
            </Link>
          }
        />
      ) : (
        <>
          <p className="muted">{t('bankCards.chooseLead')}</p>
          <ul className="wallet-list" aria-label={t('bankCards.chooseTitle')}>
            {data.map((card) => {
              const chosen = picked?.id === card.id;
              return (
                <li key={card.id} className={chosen ? 'bank-card-pick is-chosen' : 'bank-card-pick'}>
                  <BankCardView
                    card={card}
                    actions={
                      <Button
                        variant={chosen ? 'secondary' : 'primary'}
                        className="btn-small"
                        aria-pressed={chosen}
                        aria-label={t('bankCards.chooseCard', { number: card.card_number })}
                        onClick={() => {
                          pickBankCard(card);
                          goBack();
                        }}
                      >
                        {chosen ? t('bankCards.chosen') : t('bankCards.choose')}
                      </Button>
                    }
                  />
                </li>
              );
            })}
          </ul>
          <div className="wallet-actions">
            <Link to={ADD_BANK_PATH} className="btn btn-primary">
              {t('bankCards.add')}
            </Link>
            <Link to="/pages/bankbind/index" className="btn btn-secondary">
              {t('bankCards.manage')}
            </Link>
          </div>
        </>
      )}
    </Page>
  );
}
