import { Link } from '@tanstack/react-router';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BankCard } from '../../../protocol/bank-cards';
import { deleteBankCard, fetchBankCards } from '../../api/bank-cards';
import { Page } from '../../app/Page';
import { BankCardView } from '../../app/wallet/BankCardView';
import { EmptyState, LoadingOrFailed } from '../../app/wallet/StateView';
import { useRemote } from '../../app/wallet/useRemote';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { forgetPicked } from '../../state/picks';
import { toast } from '../../state/toasts';

const ADD_BANK_PATH = '/pages/bankbind/addbank';

/** Bound bank cards (SPEC "Bind bank cards"): masked numbers, edit, unbind with confirmation, add. */
export default function BankCardsPage(): ReactElement {
  const { t } = useTranslation();
  const { data, failed, reload, setData } = useRemote(() => fetchBankCards());
  const [confirm, setConfirm] = useState<BankCard | null>(null);
  const [deleting, setDeleting] = useState(false);

  const remove = async () => {
    if (!confirm) return;
    setDeleting(true);
    const r = await deleteBankCard(confirm.id);
    setDeleting(false);
    setConfirm(null);
    if (r.ok) {
      forgetPicked('bankCard', confirm.id);
      setData((list) => list?.filter((c) => c.id !== confirm.id) ?? null);
      toast(t('bankCards.deleted'), 'success');
    } else void reload();
  };

  const add = (
    <Link to={ADD_BANK_PATH} className="icon-btn" aria-label={t('bankCards.add')}>
      <Icon name="plus" />
    </Link>
  );

  return (
    <Page title={t('bankCards.title')} right={add}>
      {!data ? (
        <LoadingOrFailed failed={failed} onRetry={() => void reload()} />
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
            <Button variant="danger" busy={deleting} onClick={() => void remove()}>
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
