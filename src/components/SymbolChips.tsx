import type { ReactElement } from 'react';
import { ChoiceChips } from './ChoiceChips';

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
    <ChoiceChips
      choices={symbols}
      value={value}
      onChange={onChange}
      label={label}
      text={(s) => `${s}/USDT`}
      testId={(s) => `symbol-${s}`}
    />
  );
}
