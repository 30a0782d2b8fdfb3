import { type ReactElement, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchWalletMessage } from '../../../../core/api/wallet-login';
import type { WalletChain, WalletPurpose } from '../../../../protocol/wallet-login';
import { Button } from '../../../components/Button';
import { Icon } from '../../../components/Icon';
import { connectWallet, signWithWallet, WalletUnavailable } from '../wallet-provider';

/** A message the server issued for one wallet, signed by that wallet. */
export interface SignedWalletMessage {
  chain: WalletChain;
  message: string;
  signature: string;
}

/**
 * The steps logging in and linking share: the wallet's account, the server's message for `purpose`, the wallet's
 * signature, then `use` with the signed message. No wallet or a refusal in the wallet shows SPEC 8's "Wallet
 * connection failed"; a refusal by the server shows its message.
 */
export function useWalletSigning(purpose: WalletPurpose) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<WalletChain | null>(null);
  const [error, setError] = useState<string | null>(null);
  const sign = async (chain: WalletChain, use: (signed: SignedWalletMessage) => Promise<void>) => {
    setError(null);
    setBusy(chain);
    try {
      const address = await connectWallet(chain);
      const issued = await fetchWalletMessage({ chain, address, purpose });
      if (!issued.ok) {
        setError(issued.message);
        return;
      }
      const signature = await signWithWallet(chain, address, issued.data.message);
      await use({ chain, message: issued.data.message, signature });
    } catch (err) {
      if (!(err instanceof WalletUnavailable)) throw err;
      setError(t('walletLogin.failed'));
    } finally {
      setBusy(null);
    }
  };
  return { busy, error, setError, sign };
}

/** One button per chain, the "confirm in your wallet" hint while one works, and the last failure. */
export function WalletChainButtons({
  busy,
  error,
  labels,
  onChoose,
}: {
  busy: WalletChain | null;
  error: string | null;
  labels: Record<WalletChain, string>;
  onChoose: (chain: WalletChain) => void;
}): ReactElement {
  const { t } = useTranslation();
  // The message appears below the buttons, often under the fold of a phone: bring it into view.
  const showError = useCallback((el: HTMLDivElement | null) => el?.scrollIntoView({ block: 'nearest' }), []);
  return (
    <>
      <div className="wallet-login-buttons">
        {(['erc', 'trc'] as const).map((chain) => (
          <Button
            key={chain}
            variant="secondary"
            block
            busy={busy === chain}
            disabled={busy !== null && busy !== chain}
            onClick={() => onChoose(chain)}
          >
            {labels[chain]}
          </Button>
        ))}
      </div>
      {busy ? (
        <p className="wallet-login-hint" role="status">
          {t('walletLogin.confirmInWallet')}
        </p>
      ) : null}
      {error ? (
        <div className="note wallet-login-error" role="alert" ref={showError}>
          <Icon name="alert" size={18} />
          <p>{error}</p>
        </div>
      ) : null}
    </>
  );
}
