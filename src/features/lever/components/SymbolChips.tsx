import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';

/** The instruments contracts are offered on (lever/deal), as a row of chips that scrolls sideways. */
export function SymbolChips({
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
    <div className="lever-symbols" role="radiogroup" aria-label={t('lever.instrument')}>
      {symbols.map((s) => (
        // biome-ignore lint/a11y/useSemanticElements: a row of chips, each a button acting as one radio of the group
        <button
          key={s}
          type="button"
          role="radio"
          aria-checked={s === value}
          className={s === value ? 'lever-symbol is-active' : 'lever-symbol'}
          data-testid={`symbol-${s}`}
          onClick={() => onChange(s)}
        >
          {s}/USDT
        </button>
      ))}
    </div>
  );
}
