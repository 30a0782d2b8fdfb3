import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteBankCard, fetchBankCards } from '../../../../../core/api/bank-cards';
import type { BankCard } from '../../../../../protocol/bank-cards';
import { Button } from '../../../../components/Button';
import { Dialog } from '../../../../components/Dialog';
import { Icon } from '../../../../components/Icon';
import { Page } from '../../../../components/Page';
import { EmptyState, LoadingOrFailed } from '../../../../components/StateView';
import { keys } from '../../../../data/keys';
import { loadFailed, need } from '../../../../data/query';
import { forgetPicked } from '../../../../state/picks';
import { toast } from '../../../../state/toasts';
import { BankCardView } from '../../components/BankCardView';
import '../../wallet.css';

const ADD_BANK_PATH = '/pages/bankbind/addbank';

/** Bound bank cards (SPEC "Bind bank cards"): masked numbers, edit, unbind with confirmation, add. */
export default function BankCardsPage(): ReactElement {
  const { t } = useTranslation();
  const client = useQueryClient();
  const cards = useQuery({ queryKey: keys.bankCards, queryFn: () => need(fetchBankCards()) });
  const data = cards.data;
  const removal = useMutation({ mutationFn: (card: BankCard) => deleteBankCard(card.id) });
  const [confirm, setConfirm] = useState<BankCard | null>(null);

  const remove = async () => {
    if (!confirm) return;
    const r = await removal.mutateAsync(confirm);
    setConfirm(null);
    if (r.ok) {
      forgetPicked('bankCard', confirm.id);
      client.setQueryData<BankCard[]>(keys.bankCards, (list) => list?.filter((c) => c.id !== confirm.id));
      toast(t('bankCards.deleted'), 'success');
    } else void cards.refetch();
  };

  const add = (
    <Link to={ADD_BANK_PATH} className="icon-btn" aria-label={t('bankCards.add')}>
      <Icon name="plus" />
    </Link>
  );

  return (
    <Page title={t('bankCards.title')} right={add}>
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
          <ul className="wallet-list" aria-label={t('bankCards.title')}>
            {data.map((card) => (
              <li key={card.id}>
                <BankCardView
                  card={card}
                  actions={
                    <>
                      <Link
                        to={ADD_BANK_PATH}
                        search={{ id: card.id }}
                        className="btn btn-ghost btn-small"
                        aria-label={t('bankCards.editCard', { number: card.card_number })}
                      >
                        {t('bankCards.edit')}
                      </Link>
                      <Button
                        variant="ghost"
                        className="btn-small wallet-danger"
                        onClick={() => setConfirm(card)}
                        aria-label={t('bankCards.deleteCard', { number: card.card_number })}
                      >
                        {t('bankCards.delete')}
                      </Button>
                    </>
                  }
                />
              </li>
            ))}
          </ul>
          <Link to={ADD_BANK_PATH} className="btn btn-secondary btn-block">
            {t('bankCards.add')}
          </Link>
        </>
      )}
      <Dialog
        open={confirm !== null}
        title={t('bankCards.deleteTitle')}
        onClose={() => setConfirm(null)}
        actions={
          <>
            <Button variant="secondary" onClick={() => setConfirm(null)}>
              {t('common.cancel')}
            </Button>
            <Button variant="danger" busy={removal.isPending} onClick={() => void remove()}>
              {t('bankCards.delete')}
            </Button>
          </>
        }
      >
        <p>{confirm ? t('bankCards.deleteText', { bank: confirm.bank_name, number: confirm.card_number }) : null}</p>
      </Dialog>
    </Page>
  );
}
