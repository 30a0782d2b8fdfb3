import { type ReactElement, useId } from 'react';
import { Icon } from '../Icon';

/** A labelled native select in the look of a text field (the phone's own picker opens on tap). */
export function SelectField<V extends string>({
  label,
  value,
  options,
  onValue,
  error,
  testId,
}: {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onValue: (v: V) => void;
  error?: string | undefined;
  testId?: string;
}): ReactElement {
  const id = useId();
  return (
    <div className={`field select-field${error ? ' has-error' : ''}`}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="field-box">
        <select
          id={id}
          className="field-input select-input"
          value={value}
          data-testid={testId}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-msg` : undefined}
          onChange={(e) => {
            const picked = options.find((o) => o.value === e.target.value);
            if (picked) onValue(picked.value);
          }}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <Icon name="chevron" size={16} className="select-chevron" />
      </div>
      {error ? (
        <p className="field-msg field-error" id={`${id}-msg`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
