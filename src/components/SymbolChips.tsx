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

/**
 * The chip row's place while the product's instruments load: one chip's height, nothing to read or tap, so the price
 * header under it stands where it will stay when the chips come (a tab opened first draws that header from the
 * market snapshot before its terms arrive: issue 27; scripts/first-paint.ts draws the same row).
 */
export function SymbolChipsPending(): ReactElement {
  return (
    <div className="chip-row" aria-hidden="true">
      <span className="chip chip-pending">BTC/USDT</span>
    </div>
  );
}
