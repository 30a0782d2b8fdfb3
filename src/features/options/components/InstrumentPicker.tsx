import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';

/** The instruments options are offered on (microtrade/seconds), as a row of chips. */
export function InstrumentPicker({
  symbols,
  value,
  onChange,
}: {
  symbols: readonly string[];
  value: string;
  onChange: (symbol: string) => void;
}): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="option-symbols" role="radiogroup" aria-label={t('options.instrument')}>
      {symbols.map((s) => (
        // biome-ignore lint/a11y/useSemanticElements: a row of chips, each a button acting as one radio of the group
        <button
          key={s}
          type="button"
          role="radio"
          aria-checked={s === value}
          className={s === value ? 'option-symbol is-active' : 'option-symbol'}
          data-testid={`symbol-${s}`}
          onClick={() => onChange(s)}
        >
          {s}/USDT
        </button>
      ))}
    </div>
  );
}
