import { useCallback, useState } from 'react';
import type { z } from 'zod/mini';
import { errorText } from '../lib/i18n';
import { check, type FieldErrors } from '../lib/validation';

/** What a submit call answers: the shape of `callApiResult` (a failure may name the field it is about). */
export type SubmitResult = { ok: true } | { ok: false; field?: string | undefined; message?: string | undefined };

/** Names of the string-valued fields of a form (the ones a text input can bind to). */
export type TextField<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T] & string;

/** The props `Field` and `PasswordField` take for one value. */
export interface Bound {
  value: string;
  onValue: (v: string) => void;
  error: string | undefined;
}

/** The error side of a form, enough for a part of the form that keeps its values elsewhere (ContactFields). */
export interface FormErrors {
  /** Translated messages per field (`_form` for issues without a path). */
  errors: FieldErrors;
  setErrors: (errors: FieldErrors) => void;
  /** Removes one field's message (when the user changes that field). */
  clear: (field: string) => void;
  /**
   * Runs a shared protocol schema through `check`: the parsed data, or null after showing the translated
   * messages (replacing the shown ones, or added to them with `keep`).
   */
  validate: <S extends z.ZodMiniType>(schema: S, values?: unknown, opts?: { keep?: boolean }) => z.output<S> | null;
}

export interface Form<T extends object> extends FormErrors {
  values: T;
  /** True while a `submitWith` call runs. */
  busy: boolean;
  /** Sets one value and clears that field's message. */
  set: <K extends keyof T & string>(field: K, value: T[K]) => void;
  /** Changes several values without touching the messages (stable across renders). */
  patch: (patch: Partial<T>) => void;
  /**
   * Value, change handler and message for a text input. `map` rewrites what was typed (digits only, ...);
   * `error` names the field the messages come under when it differs from the value's name.
   */
  bind: (field: TextField<T>, opts?: { map?: (v: string) => string; error?: string }) => Bound;
  /** Runs the call with `busy` set; a failure that names a field shows its message under that field. */
  submitWith: <R extends SubmitResult>(call: () => Promise<R>) => Promise<R>;
}

/** Translates `check`'s error keys with the `errors` namespace. */
export function translateErrors(keys: FieldErrors): FieldErrors {
  const shown: FieldErrors = {};
  for (const [field, key] of Object.entries(keys)) if (key) shown[field] = errorText(key);
  return shown;
}

/** State for a form page: values, translated field messages and the busy flag around its API call. */
export function useForm<T extends object>(initial: T | (() => T)): Form<T> {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const clear = useCallback((field: string) => setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e)), []);
  const patch = useCallback((p: Partial<T>) => setValues((v) => ({ ...v, ...p })), []);

  const set = <K extends keyof T & string>(field: K, value: T[K], errorField: string = field) => {
    setValues((v) => ({ ...v, [field]: value }));
    clear(errorField);
  };

  const bind = (field: TextField<T>, opts: { map?: (v: string) => string; error?: string } = {}): Bound => {
    const errorField = opts.error ?? field;
    return {
      value: values[field] as string,
      onValue: (v) => set(field, (opts.map ? opts.map(v) : v) as T[typeof field], errorField),
      error: errors[errorField],
    };
  };

  const validate = <S extends z.ZodMiniType>(
    schema: S,
    input: unknown = values,
    opts: { keep?: boolean } = {},
  ): z.output<S> | null => {
    const checked = check(schema, input);
    if (checked.ok) return checked.data;
    const shown = translateErrors(checked.errors);
    setErrors((prev) => (opts.keep ? { ...prev, ...shown } : shown));
    return null;
  };

  const submitWith = async <R extends SubmitResult>(call: () => Promise<R>): Promise<R> => {
    setBusy(true);
    let r: R;
    try {
      r = await call();
    } finally {
      setBusy(false);
    }
    if (!r.ok && r.field) {
      const { field, message } = r;
      setErrors((prev) => ({ ...prev, [field]: message }));
    }
    return r;
  };

  return { values, errors, busy, set, patch, bind, clear, setErrors, validate, submitWith };
}
