import { type ReactElement, type ReactNode, useId } from 'react';

export function Checkbox({
  checked,
  onChange,
  children,
  error,
}: {
  checked: boolean;
  onChange: (v: boolean) => void;
  children: ReactNode;
  error?: string | undefined;
}): ReactElement {
  const id = useId();
  return (
    <div className={`check${error ? ' has-error' : ''}`}>
      <label className="check-row">
        <input
          type="checkbox"
          className="check-input"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-msg` : undefined}
        />
        <span className="check-box" aria-hidden="true" />
        <span className="check-label">{children}</span>
      </label>
      {error ? (
        <p className="field-msg field-error check-msg" id={`${id}-msg`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function Switch({
  checked,
  onChange,
  label,
}: {
  checked: boolean;
  onChange: (v: boolean) => void;
  label: string;
}): ReactElement {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      className={checked ? 'switch is-on' : 'switch'}
      onClick={() => onChange(!checked)}
    >
      <span className="switch-thumb" />
    </button>
  );
}

export function Card({ children, className }: { children: ReactNode; className?: string }): ReactElement {
  return <div className={className ? `card ${className}` : 'card'}>{children}</div>;
}

export function Spinner({ label }: { label?: string }): ReactElement {
  return (
    <span role="status">
      <span className="spinner" aria-hidden="true" />
      {label ? <span className="visually-hidden">{label}</span> : null}
    </span>
  );
}
