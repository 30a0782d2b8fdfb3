import { type InputHTMLAttributes, type ReactElement, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './Icon';

export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: string;
  value: string;
  onValue: (v: string) => void;
  /** Message shown under the field (already translated); marks the input invalid. */
  error?: string | undefined;
  hint?: string;
  /** Before the input (area code picker). */
  start?: ReactNode;
  /** After the input (send-code button, show/hide toggle). */
  end?: ReactNode;
}

export function Field({
  label,
  value,
  onValue,
  error,
  hint,
  start,
  end,
  id,
  className,
  ...input
}: FieldProps): ReactElement {
  const autoId = useId();
  const inputId = id ?? autoId;
  const msgId = `${inputId}-msg`;
  return (
    <div className={`field${error ? ' has-error' : ''}${className ? ` ${className}` : ''}`}>
      <label className="field-label" htmlFor={inputId}>
        {label}
      </label>
      <div className="field-box">
        {start}
        <input
          id={inputId}
          className="field-input"
          value={value}
          onChange={(e) => onValue(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error || hint ? msgId : undefined}
          {...input}
        />
        {end}
      </div>
      {error ? (
        <p className="field-msg field-error" id={msgId} role="alert">
          {error}
        </p>
      ) : hint ? (
        <p className="field-msg" id={msgId}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A password input with a show/hide toggle. */
export function PasswordField(props: Omit<FieldProps, 'type' | 'end'> & { end?: ReactNode }): ReactElement {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  const { end, ...rest } = props;
  return (
    <Field
      {...rest}
      type={shown ? 'text' : 'password'}
      autoCapitalize="off"
      autoCorrect="off"
      spellCheck={false}
      end={
        <>
          {end}
          <button
            type="button"
            className="field-icon-btn"
            onClick={() => setShown((s) => !s)}
            aria-label={shown ? t('form.hidePassword') : t('form.showPassword')}
            aria-pressed={shown}
          >
            <Icon name={shown ? 'eyeOff' : 'eye'} size={20} />
          </button>
        </>
      }
    />
  );
}
