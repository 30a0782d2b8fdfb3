import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ORDER_TABS, type OrderTab } from '../orders';

const LABEL_OF_TAB = { 1: 'paying', 2: 'paid', 3: 'completed', 4: 'appeal', 5: 'cancelled' } as const;

/** The order list's status tabs, scrolling sideways on a narrow screen. */
export function StatusTabs({ value, onChange }: { value: OrderTab; onChange: (tab: OrderTab) => void }): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="c2c-tabs" role="tablist" aria-label={t('c2c.orders.tabs')}>
      {ORDER_TABS.map((tab) => (
        <button
          key={tab}
          type="button"
          role="tab"
          aria-selected={tab === value}
          className={tab === value ? 'c2c-tab is-active' : 'c2c-tab'}
          onClick={() => onChange(tab)}
          data-testid={`c2c-tab-${tab}`}
        >
          {tab === 'all' ? t('c2c.orders.all') : t(`c2c.status.${LABEL_OF_TAB[tab]}`)}
        </button>
      ))}
    </div>
  );
}
