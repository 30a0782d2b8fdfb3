import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactElement, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { bindWallet, fetchWallets, unbindWallet } from '../../../../core/api/wallet-login';
import type { WalletChain, WalletLink } from '../../../../protocol/wallet-login';
import { Button } from '../../../components/Button';
import { Dialog } from '../../../components/Dialog';
import { PasswordField } from '../../../components/Field';
import { Icon } from '../../../components/Icon';
import { formatDateTime } from '../../../lib/format';
import { errorText } from '../../../lib/i18n';
import { settings } from '../../../state/settings';
import { toast } from '../../../state/toasts';
import { useWalletSigning, WalletChainButtons } from './WalletChainButtons';
import './wallet-login.css';

/** The query of the user's linked wallets (only this section reads it). */
const WALLETS_KEY = ['account', 'wallet-links'] as const;

const chainLabel = (chain: WalletChain) => (chain === 'erc' ? 'walletLinks.chainErc' : 'walletLinks.chainTrc');

/**
 * The security centre's linked wallets: each with the chain and address, link another (the wallet signs a linking
 * message), unlink one with the login password. An account made by a wallet has no login password and keeps its
 * wallets (the server refuses; the section says why instead of offering the button).
 */
export function WalletLinks(): ReactElement {
  const { t } = useTranslation();
  const { lang } = useSnapshot(settings);
  const client = useQueryClient();
  const q = useQuery({
    queryKey: WALLETS_KEY,
    queryFn: async () => {
      const r = await fetchWallets();
      if (r === false) throw new Error('wallet_list failed');
      return r;
    },
  });
  const { busy, error, sign } = useWalletSigning('bind');
  const [unlinking, setUnlinking] = useState<WalletLink | null>(null);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [submitting, setSubmitting] = useState(false);

  const link = (chain: WalletChain) =>
    sign(chain, async (signed) => {
      // A refusal is toasted like every session call's (type 999 goes to login).
      const r = await bindWallet(signed);
      if (!r.ok) return;
      toast(t('walletLinks.linked'), 'success');
      await client.invalidateQueries({ queryKey: WALLETS_KEY });
    });

  const closeUnlink = useCallback(() => {
    setUnlinking(null);
    setPassword('');
    setPasswordError(undefined);
  }, []);

  const unlink = async (e: FormEvent) => {
    e.preventDefault();
    if (!unlinking) return;
    if (!password) {
      setPasswordError(errorText('passwordRequired'));
      return;
    }
    setSubmitting(true);
    const r = await unbindWallet({ chain: unlinking.chain, address: unlinking.address, password });
    setSubmitting(false);
    // Other failures are toasted like every session call's (type 999 goes to login).
    if (!r.ok) {
      if (r.field === 'password') setPasswordError(r.message);
      return;
    }
    closeUnlink();
    toast(t('walletLinks.unlinked'), 'success');
    await client.invalidateQueries({ queryKey: WALLETS_KEY });
  };

  const data = q.data;
  return (
    <section className="list-group wallet-links" aria-labelledby="wallet-links-title">
      <h2 className="list-title" id="wallet-links-title">
        {t('walletLinks.title')}
      </h2>
      <p className="wallet-links-lead">{t('walletLinks.lead')}</p>
      {data ? (
        data.wallets.length === 0 ? (
          <p className="wallet-links-empty">{t('walletLinks.none')}</p>
        ) : (
          <ul className="list">
            {data.wallets.map((w) => (
              <li key={`${w.chain}:${w.address}`} className="list-item wallet-link">
                <span className="list-icon">
                  <Icon name="key" size={20} />
                </span>
                <span className="list-text">
                  <span className="list-label">{t(chainLabel(w.chain))}</span>
                  <span className="list-sub wallet-address">{w.address}</span>
                  <span className="list-sub">
                    {t('walletLinks.since', { date: formatDateTime(w.created_at, lang, false) })}
                  </span>
                </span>
                {data.password_login ? (
                  <Button
                    variant="ghost"
                    onClick={() => setUnlinking(w)}
                    aria-label={t('walletLinks.unlinkOne', { chain: t(chainLabel(w.chain)) })}
                  >
                    {t('walletLinks.unlink')}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )
      ) : q.isError ? (
        <p className="wallet-links-empty">{t('common.loadFailed')}</p>
      ) : null}
      {data && !data.password_login ? <p className="wallet-links-lead">{t('walletLinks.walletOnly')}</p> : null}
      <WalletChainButtons
        busy={busy}
        error={error}
        labels={{ erc: t('walletLinks.linkErc'), trc: t('walletLinks.linkTrc') }}
        onChoose={(chain) => void link(chain)}
      />
      <Dialog
        open={unlinking !== null}
        title={t('walletLinks.unlinkTitle')}
        onClose={closeUnlink}
        actions={
          <>
            <Button variant="ghost" onClick={closeUnlink}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" form="wallet-unlink" variant="danger" busy={submitting}>
              {t('walletLinks.unlink')}
            </Button>
          </>
        }
      >
        <form id="wallet-unlink" className="form" onSubmit={unlink} noValidate>
          <p className="wallet-address">{unlinking?.address}</p>
          <p>{t('walletLinks.unlinkLead')}</p>
          <PasswordField
            label={t('security.loginPassword')}
            value={password}
            onValue={(v) => {
              setPassword(v);
              setPasswordError(undefined);
            }}
            error={passwordError}
            autoComplete="current-password"
          />
        </form>
      </Dialog>
    </section>
  );
}
