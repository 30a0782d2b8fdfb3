import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Icon } from '../../../components/Icon';
import { amountsView, toggleAmounts } from './hideAmounts';

/** Shows or hides every amount on the assets pages. */
export function EyeToggle(): ReactElement {
  const { t } = useTranslation();
  const { hidden } = useSnapshot(amountsView);
  return (
    <button
      type="button"
      className="icon-btn assets-eye"
      onClick={toggleAmounts}
      aria-pressed={hidden}
      aria-label={hidden ? t('assets.showAmounts') : t('assets.hideAmounts')}
    >
      <Icon name={hidden ? 'eyeOff' : 'eye'} size={20} />
    </button>
  );
}
