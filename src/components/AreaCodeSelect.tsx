import { type ReactElement, useMemo } from 'react';
import type { AreaCode } from '../../protocol/account';

export interface AreaOption extends AreaCode {
  name: string;
}

/** Country names in the user's language (Intl.DisplayNames), sorted by name; the ISO code when a name is unknown. */
export function areaOptions(codes: readonly AreaCode[], locale: string): AreaOption[] {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([locale], { type: 'region' });
  } catch {
    names = null;
  }
  const collator = new Intl.Collator(locale);
  return codes
    .map((c) => {
      let name = c.iso;
      try {
        name = names?.of(c.iso) ?? c.iso;
      } catch {
        name = c.iso;
      }
      return { ...c, name };
    })
    .sort((a, b) => collator.compare(a.name, b.name));
}

/** A compact calling-code picker: shows "+49", opens the native list of countries with their codes. */
export function AreaCodeSelect({
  codes,
  value,
  onChange,
  locale,
  label,
}: {
  codes: readonly AreaCode[];
  value: string;
  onChange: (iso: string) => void;
  locale: string;
  label: string;
}): ReactElement {
  const options = useMemo(() => areaOptions(codes, locale), [codes, locale]);
  const current = options.find((o) => o.iso === value);
  return (
    <span className="area-select">
      <span className="area-select-shown" aria-hidden="true">
        {current ? `+${current.dial}` : '+'}
      </span>
      <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
        {current ? null : <option value="" />}
        {options.map((o) => (
          <option key={o.iso} value={o.iso}>{`${o.name} (+${o.dial})`}</option>
        ))}
      </select>
    </span>
  );
}
