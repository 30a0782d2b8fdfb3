import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ChoiceChips } from '../../../components/ChoiceChips';
import { ORDER_TABS, type OrderTab } from '../orders';

const LABEL_OF_TAB = { 1: 'paying', 2: 'paid', 3: 'completed', 4: 'appeal', 5: 'cancelled' } as const;

/** The order list's status tabs, scrolling sideways on a narrow screen. */
export function StatusTabs({ value, onChange }: { value: OrderTab; onChange: (tab: OrderTab) => void }): ReactElement {
  const { t } = useTranslation();
  return (
    <ChoiceChips
      kind="tab"
      choices={ORDER_TABS}
      value={value}
      onChange={onChange}
      label={t('c2c.orders.tabs')}
      text={(tab) => (tab === 'all' ? t('c2c.orders.all') : t(`c2c.status.${LABEL_OF_TAB[tab]}`))}
      testId={(tab) => `c2c-tab-${tab}`}
      rowClassName="c2c-tabs"
      chipClassName="c2c-tab"
    />
  );
}
