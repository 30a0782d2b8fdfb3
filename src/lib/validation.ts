import type { z } from 'zod/mini';

/** Field name to `errors` namespace key: the first problem per field, in schema order. */
export type FieldErrors = Partial<Record<string, string>>;

export type Checked<S extends z.ZodMiniType> = { ok: true; data: z.output<S> } | { ok: false; errors: FieldErrors };

/**
 * Runs a shared protocol schema on form values so the client shows exactly the rules the server enforces.
 * Issues without a path are reported under `_form`.
 */
export function check<S extends z.ZodMiniType>(schema: S, values: unknown): Checked<S> {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : '_form';
    if (errors[field] === undefined) errors[field] = issue.message;
  }
  return { ok: false, errors };
}
