import { proxy, subscribe } from 'valtio';
import { readStorage, writeStorage } from '../../../state/storage';

const KEY = 'tw.assets.hidden';

/** The assets pages' "hide amounts" eye: kept across visits on this device. */
export const amountsView = proxy({ hidden: readStorage(KEY) === '1' });

subscribe(amountsView, () => writeStorage(KEY, amountsView.hidden ? '1' : null));

export function toggleAmounts(): void {
  amountsView.hidden = !amountsView.hidden;
}

/** What a hidden amount shows instead of its digits. */
export const MASK = '****';
