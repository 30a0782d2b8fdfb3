import { type ReactElement, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { areaOptions } from '../../../components/AreaCodeSelect';
import { useAreaCodeList } from '../../../data/areaCodes';

/** A country's name in the user's language; the ISO code when the browser does not know it. */
export function countryName(iso: string, locale: string): string {
  return areaOptions([{ iso, dial: '' }], locale)[0]?.name ?? iso;
}

/** A country field (ISO code) over the same country list as the phone area codes, names in the user's language. */
export function CountrySelect({
  label,
  placeholder,
  value,
  onChange,
  error,
  locale,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (iso: string) => void;
  error?: string | undefined;
  locale: string;
}): ReactElement {
  const id = useId();
  const { t } = useTranslation();
  const codes = useAreaCodeList();
  const options = useMemo(() => areaOptions(codes, locale), [codes, locale]);
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="field-box field-select">
        <select
          id={id}
          className="field-input"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-msg` : undefined}
          aria-busy={codes.length === 0 || undefined}
        >
          <option value="" disabled>
            {codes.length === 0 ? t('common.loading') : placeholder}
          </option>
          {options.map((o) => (
            <option key={o.iso} value={o.iso}>
              {o.name}
            </option>
          ))}
        </select>
      </div>
      {error ? (
        <p className="field-msg field-error" id={`${id}-msg`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
