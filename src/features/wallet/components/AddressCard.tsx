import type { ReactElement, ReactNode } from 'react';
import type { WithdrawAddress } from '../../../../protocol/wallet-addresses';

/** One saved withdrawal address: label (or coin), network badge, the full address, and actions on the right. */
export function AddressCard({
  address,
  label,
  actions,
}: {
  address: WithdrawAddress;
  /** Shown when the address has no label of its own. */
  label: string;
  actions?: ReactNode;
}): ReactElement {
  return (
    <div className="wallet-item">
      <div className="wallet-item-main">
        <div className="wallet-item-head">
          <span className="wallet-item-title">{address.label ?? label}</span>
          <span className="badge wallet-chain">{address.chain}</span>
        </div>
        <code className="wallet-address">{address.address}</code>
      </div>
      {actions ? <div className="wallet-item-actions">{actions}</div> : null}
    </div>
  );
}
