import type { ReactElement } from 'react';

/**
 * The instruments a product is offered on, as a row of chips that scrolls sideways: a radio group whose options are
 * buttons. `classPrefix` picks the product's styles (`<prefix>-symbols`, `<prefix>-symbol`, `is-active`).
 */
export function SymbolChips({
  symbols,
  value,
  onChange,
  label,
  classPrefix,
}: {
  symbols: readonly string[];
  value: string;
  onChange: (symbol: string) => void;
  /** The group's accessible name, in the user's language. */
  label: string;
  classPrefix: string;
}): ReactElement {
  return (
    <div className={`${classPrefix}-symbols`} role="radiogroup" aria-label={label}>
      {symbols.map((s) => (
        // biome-ignore lint/a11y/useSemanticElements: a row of chips, each a button acting as one radio of the group
        <button
          key={s}
          type="button"
          role="radio"
          aria-checked={s === value}
          className={s === value ? `${classPrefix}-symbol is-active` : `${classPrefix}-symbol`}
          data-testid={`symbol-${s}`}
          onClick={() => onChange(s)}
        >
          {s}/USDT
        </button>
      ))}
    </div>
  );
}
