import type { ReactElement } from 'react';

/**
 * A product's instruments as a row of chips that scrolls sideways, one chosen (options: microtrade/seconds; lever:
 * lever/deal). `label` names the group for screen readers, in the product's own words.
 */
export function SymbolChips({
  symbols,
  value,
  onChange,
  label,
}: {
  symbols: readonly string[];
  value: string;
  onChange: (symbol: string) => void;
  label: string;
}): ReactElement {
  return (
    <div className="chip-row" role="radiogroup" aria-label={label}>
      {symbols.map((s) => (
        // biome-ignore lint/a11y/useSemanticElements: a row of chips, each a button acting as one radio of the group
        <button
          key={s}
          type="button"
          role="radio"
          aria-checked={s === value}
          className={s === value ? 'chip is-active' : 'chip'}
          data-testid={`symbol-${s}`}
          onClick={() => onChange(s)}
        >
          {s}/USDT
        </button>
      ))}
    </div>
  );
}
