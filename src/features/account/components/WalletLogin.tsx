import { lazy, type ReactElement, Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { walletLogin } from '../../../../core/api/wallet-login';
import type { SessionResponse } from '../../../../protocol/account';
import type { WalletChain } from '../../../../protocol/wallet-login';
import { setSession } from '../../../state/session';
import { type SignedWalletMessage, useWalletSigning, WalletChainButtons } from './WalletChainButtons';
import './wallet-login.css';

const WalletSignup = lazy(() => import('./WalletSignup'));

/** A signed login message waiting for the new wallet's invite code (the signature is sent again with it). */
type PendingSignup = SignedWalletMessage;

/**
 * "Log in with a wallet" (SPEC 1): the wallet's account, the server's message, the wallet's signature, then login. A
 * new wallet is asked for a contact with its code, an invite code and the user agreement (SPEC 5) in a dialog
 * (WalletSignup) and registers with the same signature. No wallet, a refusal in the wallet or any failure on the way
 * shows SPEC 8's "Wallet connection failed".
 */
export function WalletLogin({
  invitePrefill,
  onLoggedIn,
}: {
  invitePrefill: string;
  /** After the session has been started (as the password login does). */
  onLoggedIn: (session: SessionResponse, registered: boolean) => void;
}): ReactElement {
  const { t } = useTranslation();
  const { busy, error, setError, sign } = useWalletSigning('login');
  const [pending, setPending] = useState<PendingSignup | null>(null);

  const loggedIn = (session: SessionResponse, registered: boolean) => {
    setSession(session.token, session.user);
    onLoggedIn(session, registered);
  };

  const start = (chain: WalletChain) =>
    sign(chain, async (signed) => {
      const r = await walletLogin(signed);
      if (r.ok) loggedIn(r.data, false);
      else if (r.field === 'invite_code') setPending(signed);
      else setError(r.message);
    });

  const closeSignup = useCallback(() => setPending(null), []);

  return (
    <section className="wallet-login" aria-labelledby="wallet-login-title">
      <p className="wallet-login-or" aria-hidden="true">
        <span>{t('walletLogin.or')}</span>
      </p>
      <h3 id="wallet-login-title" className="wallet-login-title">
        {t('walletLogin.title')}
      </h3>
      <p className="wallet-login-lead">{t('walletLogin.lead')}</p>
      <WalletChainButtons
        busy={busy}
        error={error}
        labels={{ erc: t('walletLogin.erc'), trc: t('walletLogin.trc') }}
        onChoose={(chain) => void start(chain)}
      />
      {pending ? (
        <Suspense fallback={null}>
          <WalletSignup
            pending={pending}
            invitePrefill={invitePrefill}
            onClose={closeSignup}
            onRegistered={(session) => {
              setPending(null);
              loggedIn(session, true);
            }}
            onFailed={(message) => {
              setPending(null);
              setError(message);
            }}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
