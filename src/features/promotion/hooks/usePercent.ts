import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { percentText } from '../bonus';

/** Shows a wire ratio ('0.2000') as a percentage in the user's language: '20%' (en), '20 %' (de). */
export function usePercent(): (ratio: string) => string {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return useCallback((ratio: string) => t('promotion.percent', { value: percentText(ratio, lang) }), [t, lang]);
}
