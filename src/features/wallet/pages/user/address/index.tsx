import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteAddress, fetchAddresses } from '../../../../../../core/api/addresses';
import { CHAIN_COINS } from '../../../../../../protocol/chains';
import type { WithdrawAddress } from '../../../../../../protocol/wallet-addresses';
import { Button } from '../../../../../components/Button';
import { Dialog } from '../../../../../components/Dialog';
import { Icon } from '../../../../../components/Icon';
import { Page } from '../../../../../components/Page';
import { EmptyState, LoadingOrFailed } from '../../../../../components/StateView';
import { useFundPasswordSet } from '../../../../../data/fundPassword';
import { keys } from '../../../../../data/keys';
import { loadFailed, need } from '../../../../../data/query';
import { copyText } from '../../../../../lib/clipboard';
import { errorText } from '../../../../../lib/i18n';
import { forgetPicked } from '../../../../../state/picks';
import { toast } from '../../../../../state/toasts';
import { AddressCard } from '../../../components/AddressCard';
import { CHANGE_FUND_PASSWORD_PATH } from '../../../components/FundPasswordNeeded';
import '../../../wallet.css';

const CREATE_PATH = '/pages/user/address/create';

/** The left menu's "withdrawal addresses": saved addresses per coin, copy, delete with confirmation, add. */
export default function AddressListPage(): ReactElement {
  const { t } = useTranslation();
  const fundSet = useFundPasswordSet();
  const client = useQueryClient();
  const addresses = useQuery({ queryKey: keys.addresses(), queryFn: () => need(fetchAddresses()) });
  const data = addresses.data;
  const removal = useMutation({ mutationFn: (a: WithdrawAddress) => deleteAddress(a.id) });
  const [confirm, setConfirm] = useState<WithdrawAddress | null>(null);

  const copy = async (text: string) => {
    if (await copyText(text)) toast(t('common.copied'), 'success');
    else toast(t('common.copyFailed'), 'error');
  };

  const remove = async () => {
    if (!confirm) return;
    const r = await removal.mutateAsync(confirm);
    if (r.ok) {
      forgetPicked('address', confirm.id);
      client.setQueryData<WithdrawAddress[]>(keys.addresses(), (list) => list?.filter((a) => a.id !== confirm.id));
      // The per-coin lists (the withdraw page's picker) are read again when next shown.
      void client.invalidateQueries({ queryKey: keys.addressLists, refetchType: 'none' });
      toast(t('addresses.deleted'), 'success');
      setConfirm(null);
    } else {
      // Gone meanwhile (another tab): show the list as the server has it.
      setConfirm(null);
      void addresses.refetch();
    }
  };

  const add = (
    <Link to={CREATE_PATH} className="icon-btn" aria-label={t('addresses.add')}>
      <Icon name="plus" />
    </Link>
  );

  return (
    <Page title={t('addresses.title')} right={add}>
      {!fundSet ? (
        <div className="note">
          <Icon name="alert" size={18} />
          <p>
            {errorText('fundPasswordNotSet')}{' '}
            <Link to={CHANGE_FUND_PASSWORD_PATH}>{t('addresses.setFundPassword')}</Link>
          </p>
        </div>
      ) : null}
      {!data ? (
        <LoadingOrFailed failed={loadFailed(addresses)} onRetry={() => void addresses.refetch()} />
      ) : data.length === 0 ? (
        <EmptyState
          icon="tag"
          title={t('addresses.emptyTitle')}
          text={t('addresses.emptyText')}
          action={
            <Link to={CREATE_PATH} className="btn btn-primary">
              {t('addresses.add')}
            </Link>
          }
        />
      ) : (
        <>
          {CHAIN_COINS.map((coin) => {
            const ofCoin = data.filter((a) => a.coin === coin);
            if (ofCoin.length === 0) return null;
            return (
              <section key={coin} className="wallet-group" aria-label={coin}>
                <h2 className="list-title">{coin}</h2>
                <ul className="wallet-list">
                  {ofCoin.map((a) => (
                    <li key={a.id}>
                      <AddressCard
                        address={a}
                        label={t('addresses.unnamed', { coin: a.coin })}
                        actions={
                          <>
                            <button
                              type="button"
                              className="field-icon-btn"
                              onClick={() => void copy(a.address)}
                              aria-label={t('addresses.copy')}
                            >
                              <Icon name="copy" size={18} />
                            </button>
                            <button
                              type="button"
                              className="field-icon-btn wallet-danger"
                              onClick={() => setConfirm(a)}
                              aria-label={t('addresses.delete')}
                            >
                              <Icon name="trash" size={18} />
                            </button>
                          </>
                        }
                      />
                    </li>
                  ))}
                </ul>
              </section>
            );
          })}
          <Link to={CREATE_PATH} className="btn btn-secondary btn-block">
            {t('addresses.add')}
          </Link>
        </>
      )}
      <Dialog
        open={confirm !== null}
        title={t('addresses.deleteTitle')}
        onClose={() => setConfirm(null)}
        actions={
          <>
            <Button variant="secondary" onClick={() => setConfirm(null)}>
              {t('common.cancel')}
            </Button>
            <Button variant="danger" busy={removal.isPending} onClick={() => void remove()}>
              {t('addresses.delete')}
            </Button>
          </>
        }
      >
        <p>{t('addresses.deleteText')}</p>
        {confirm ? (
          <p className="wallet-confirm-address">
            <span className="badge wallet-chain">
              {confirm.coin} · {confirm.chain}
            </span>
            <code className="wallet-address">{confirm.address}</code>
          </p>
        ) : null}
      </Dialog>
    </Page>
  );
}
