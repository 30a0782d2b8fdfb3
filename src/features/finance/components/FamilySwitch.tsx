import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { FINANCE_FAMILIES, type FinanceFamily } from '../../../../protocol/finance';
import { Segmented } from '../../../components/Segmented';

/** Trust products (lh/deposit) or hosting products (lh/send). */
export function FamilySwitch({
  value,
  onChange,
}: {
  value: FinanceFamily;
  onChange: (family: FinanceFamily) => void;
}): ReactElement {
  const { t } = useTranslation();
  return (
    <Segmented
      label={t('finance.families.label')}
      value={value}
      options={FINANCE_FAMILIES.map((f) => ({ value: f, label: t(`finance.families.${f}`) }))}
      onChange={onChange}
    />
  );
}

export const isFamily = (v: string | undefined): v is FinanceFamily =>
  (FINANCE_FAMILIES as readonly string[]).includes(v ?? '');
