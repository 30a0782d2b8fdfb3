import ky, { isTimeoutError } from 'ky';
import { type CallData, type CallPath, type CallRequest, calls } from '../../protocol/calls';
import { type AnyEnvelope, anyEnvelope, LANG_HEADER, SESSION_EXPIRED_TYPE } from '../../protocol/envelope';
import { LOGIN_PATH, loginGuard } from '../app/guard';
import { currentHref, navigateTo } from '../app/navigation';
import { isTabPath } from '../app/tabs';
import { errorText, i18n } from '../lib/i18n';
import { notLoggedIn$ } from '../state/events';
import { beginLoading } from '../state/loading';
import { clearSession, session } from '../state/session';
import { settings } from '../state/settings';
import { toast } from '../state/toasts';

/** SPEC 7: network timeout. */
export const TIMEOUT_MS = 60_000;
/** SPEC 4: after a type-999 answer the app goes to login this much later. */
export const EXPIRED_REDIRECT_MS = 1000;
/** Shown when a failure carries no message (SPEC 7). */
export const FALLBACK_ERROR = 'ERROR';

export interface CallOptions {
  /** Show the global loading indicator (default true). */
  loading?: boolean;
  /** No error toast and no login redirect on type 999; the call still resolves false. */
  quiet?: boolean;
  signal?: AbortSignal;
}

export type FormValue = string | number | boolean | null | undefined;

/** Form fields as the server reads them: every value a string; undefined and null are left out. */
export function toForm(body: object): URLSearchParams {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(body) as [string, FormValue][]) {
    if (v === undefined || v === null) continue;
    form.set(k, typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
  }
  return form;
}

/** The headers every request carries (SPEC 7): the raw session token (empty when logged out) and the language. */
export function sessionHeaders(): Record<string, string> {
  return { Authorization: session.token ?? '', [LANG_HEADER]: settings.lang };
}

const http = ky.create({
  timeout: TIMEOUT_MS,
  retry: 0,
  throwHttpErrors: false,
  // Read the global each time so tests (and polyfills) can replace it.
  fetch: (input, init) => globalThis.fetch(input, init),
  hooks: {
    beforeRequest: [
      (req) => {
        for (const [name, value] of Object.entries(sessionHeaders())) req.headers.set(name, value);
      },
    ],
  },
});

/** The absolute URL of /api/<path> on this page's origin. */
export function apiUrl(path: string): string {
  return new URL(`/api/${path.replace(/^\/+/, '')}`, globalThis.location?.href ?? 'http://localhost/').href;
}

/** What one envelope means (SPEC 7), before any side effect. */
export type Outcome =
  | { kind: 'data'; data: unknown }
  | { kind: 'message'; message: string; data: unknown }
  | { kind: 'expired'; message: string }
  | { kind: 'fail'; message: string; field?: string; retryAfter?: number };

/** Seconds until a rate-limited call may be repeated, when the server said so (`data.retry_after`). */
function retryAfterOf(raw: unknown): number | undefined {
  if (!raw || typeof raw !== 'object' || !('data' in raw)) return undefined;
  const data = raw.data;
  if (!data || typeof data !== 'object' || !('retry_after' in data)) return undefined;
  return typeof data.retry_after === 'number' && data.retry_after > 0 ? data.retry_after : undefined;
}

export function interpret(env: AnyEnvelope | null, raw?: unknown): Outcome {
  if (!env) return { kind: 'fail', message: FALLBACK_ERROR };
  const message = env.message || env.msg || '';
  if (env.type === SESSION_EXPIRED_TYPE || env.type === String(SESSION_EXPIRED_TYPE))
    return { kind: 'expired', message };
  if (env.type === 'ok' || Number(env.code) === 1) {
    if (env.message === 'OK' || env.msg === 'success') return { kind: 'data', data: env.data };
    return { kind: 'message', message, data: env.data };
  }
  const field =
    raw && typeof raw === 'object' && 'field' in raw && typeof raw.field === 'string' ? raw.field : undefined;
  const retryAfter = retryAfterOf(raw);
  return {
    kind: 'fail',
    message: message || FALLBACK_ERROR,
    ...(field ? { field } : {}),
    ...(retryAfter ? { retryAfter } : {}),
  };
}

/** Type 999: the session is gone. Clear it, tell the user and the app, and go to login a second later. */
function sessionExpired(message: string): void {
  clearSession();
  toast(message || errorText('sessionExpired'), 'error');
  notLoggedIn$.next({ message });
  const here = currentHref();
  const pathname = here.split('?')[0] ?? '/';
  if (pathname === LOGIN_PATH) return;
  const { fresh, target } = loginGuard.trigger(here, isTabPath(pathname));
  if (fresh) setTimeout(() => navigateTo(target), EXPIRED_REDIRECT_MS);
}

export type Method = 'GET' | 'POST' | 'PUT';

/** Sends one call and applies the SPEC 7 rules; resolves to the outcome (never throws). */
export async function send(method: Method, path: string, body: object = {}, opts: CallOptions = {}): Promise<Outcome> {
  const done = opts.loading === false ? () => {} : beginLoading();
  let outcome: Outcome;
  try {
    const form = toForm(body);
    const res = await http(apiUrl(path), {
      method,
      ...(method === 'GET' ? { searchParams: form } : { body: form }),
      headers: method === 'GET' ? {} : { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    let raw: unknown = null;
    try {
      raw = await res.json();
    } catch {
      raw = null;
    }
    const env = anyEnvelope.safeParse(raw);
    outcome = interpret(env.success ? env.data : null, raw);
    if (!res.ok && outcome.kind !== 'fail' && outcome.kind !== 'expired') {
      outcome = { kind: 'fail', message: FALLBACK_ERROR };
    }
  } catch (err) {
    // A call the caller cancelled fails silently (the empty message is not toasted).
    if (opts.signal?.aborted) return { kind: 'fail', message: '' };
    const message = isTimeoutError(err) ? i18n.t('app:net.timeout') : i18n.t('app:net.offline');
    outcome = { kind: 'fail', message: message || FALLBACK_ERROR };
  } finally {
    done();
  }
  reportOutcome(outcome, opts);
  return outcome;
}

/** The side effects of an outcome (SPEC 7): type 999 logs out, a failure is toasted; `quiet` skips both. */
export function reportOutcome(outcome: Outcome, opts: Pick<CallOptions, 'quiet'> = {}): void {
  if (outcome.kind === 'expired') {
    if (!opts.quiet) sessionExpired(outcome.message);
  } else if (outcome.kind === 'fail' && !opts.quiet && outcome.message) {
    toast(outcome.message, 'error');
  }
}

/**
 * A binary resource under /api (an uploaded image) with the session headers; null on any failure, after the
 * SPEC 7 handling of an error envelope (type 999 logs out; other messages are left to the caller).
 */
export async function fetchBlob(
  path: string,
  search: Record<string, string>,
  signal?: AbortSignal,
): Promise<Blob | null> {
  try {
    const res = await http(apiUrl(path), { method: 'GET', searchParams: search, ...(signal ? { signal } : {}) });
    // A 999 comes as HTTP 200 with an envelope, so the type tells bytes from an answer.
    if (res.ok && !res.headers.get('content-type')?.includes('json')) return await res.blob();
    const env = anyEnvelope.safeParse(await res.json().catch(() => null));
    const outcome = env.success ? interpret(env.data) : null;
    if (outcome?.kind === 'expired') reportOutcome(outcome);
    return null;
  } catch {
    return null;
  }
}

/**
 * SPEC 7 literally: the data when the message is OK (or msg is success), otherwise the message; false on failure
 * (after a toast) and on type 999 (after the logout handling).
 */
export async function request(method: Method, path: string, body?: object, opts?: CallOptions): Promise<unknown> {
  const out = await send(method, path, body, opts);
  if (out.kind === 'data') return out.data;
  if (out.kind === 'message') return out.message;
  return false;
}

export type CallResult<P extends CallPath> =
  | { ok: true; data: CallData<P> }
  | { ok: false; message: string; field?: string; retryAfter?: number };

/**
 * A typed call from the protocol table: request fields typed by the contract, ok data parsed with the call's
 * response schema. A failure carries the message (already toasted unless quiet) and the field it refers to.
 */
export async function callApiResult<P extends CallPath>(
  path: P,
  body: CallRequest<P>,
  opts?: CallOptions,
): Promise<CallResult<P>> {
  const spec = calls[path];
  const out = await send(spec.method, path, body as object, opts);
  if (out.kind === 'fail') {
    const { kind: _, ...failure } = out;
    return { ok: false, ...failure };
  }
  if (out.kind === 'expired') return { ok: false, message: out.message };
  // An ok answer with a message other than OK is meant for the user (SPEC 7); the data still counts.
  if (out.kind === 'message' && out.message && !opts?.quiet) toast(out.message, 'info');
  const parsed = spec.response.safeParse(out.data);
  if (!parsed.success) {
    console.warn(`api ${path}: response does not match the contract`, parsed.error.issues);
    if (!opts?.quiet) toast(FALLBACK_ERROR, 'error');
    return { ok: false, message: FALLBACK_ERROR };
  }
  return { ok: true, data: parsed.data as CallData<P> };
}

/** The typed call with the SPEC 7 result: the parsed data, or false on any failure (the user has been told). */
export async function callApi<P extends CallPath>(
  path: P,
  body: CallRequest<P>,
  opts?: CallOptions,
): Promise<CallData<P> | false> {
  const r = await callApiResult(path, body, opts);
  return r.ok ? r.data : false;
}
