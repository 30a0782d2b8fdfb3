import ky, { isTimeoutError } from 'ky';
import type { z } from 'zod/mini';
import type { CallSpec, CallTable } from '../../protocol/call-spec';
import { type AnyEnvelope, anyEnvelope, LANG_HEADER, SESSION_EXPIRED_TYPE } from '../../protocol/envelope';
import { DEFAULT_LANG } from '../../protocol/lang';
import { type ServerClock, serverClock } from '../clock';
import { apiEvents } from './events';

/** SPEC 7: network timeout. */
export const TIMEOUT_MS = 60_000;
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

/** Texts the client makes itself (everything else comes from the server, already in the user's language). */
export type ApiTextKey = 'timeout' | 'offline' | 'uploadFailed';

export interface ApiConfig {
  /** The session token (null when logged out) and the interface language, read for every request (SPEC 7). */
  headers: () => { token: string | null; lang: string };
  /** Translates the client's own texts; an empty text falls back to FALLBACK_ERROR. */
  text: (key: ApiTextKey) => string;
  /** Fed with the answers' `Date` headers (coarse server time until the socket says better). */
  clock: ServerClock | null;
}

const DEFAULT_CONFIG: ApiConfig = {
  headers: () => ({ token: null, lang: DEFAULT_LANG }),
  text: () => '',
  clock: serverClock,
};

let config: ApiConfig = DEFAULT_CONFIG;

/**
 * Tells the client where the session token and language come from and how to word its own texts. The app calls this
 * once at start (src/main.tsx); core/ never reads the app's stores itself. Fields left out keep their defaults.
 */
export function configureApi(options: Partial<ApiConfig>): void {
  config = { ...DEFAULT_CONFIG, ...options };
}

/** One of the client's own texts in the user's language (FALLBACK_ERROR when none is configured). */
export function apiText(key: ApiTextKey): string {
  return config.text(key) || FALLBACK_ERROR;
}

/** The headers every request carries (SPEC 7): the raw session token (empty when logged out) and the language. */
export function sessionHeaders(): Record<string, string> {
  const { token, lang } = config.headers();
  return { Authorization: token ?? '', [LANG_HEADER]: lang };
}

/** A request's own headers in place of the session headers (the support console's: never the user's token). */
interface RequestContext {
  headers?: Record<string, string>;
}

const http = ky.create({
  timeout: TIMEOUT_MS,
  retry: 0,
  throwHttpErrors: false,
  // Read the global each time so tests (and polyfills) can replace it.
  fetch: (input, init) => globalThis.fetch(input, init),
  hooks: {
    beforeRequest: [
      (req, options) => {
        const own = (options.context as RequestContext).headers;
        for (const [name, value] of Object.entries(own ?? sessionHeaders())) req.headers.set(name, value);
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
  | { kind: 'fail'; message: string; field?: string; reason?: string; retryAfter?: number };

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
    ...(env.reason ? { reason: env.reason } : {}),
    ...(field ? { field } : {}),
    ...(retryAfter ? { retryAfter } : {}),
  };
}

export type Method = 'GET' | 'POST' | 'PUT';

/** Sends one call and applies the SPEC 7 rules; resolves to the outcome (never throws). */
export async function send(method: Method, path: string, body: object = {}, opts: CallOptions = {}): Promise<Outcome> {
  const showLoading = opts.loading !== false;
  if (showLoading) apiEvents.emit('loadingBegin', { path });
  let outcome: Outcome;
  try {
    outcome = await exchange(method, path, body, opts.signal);
  } finally {
    if (showLoading) apiEvents.emit('loadingEnd', { path });
  }
  reportOutcome(outcome, opts);
  return outcome;
}

/**
 * One call with `headers` in place of the user's session headers, for the support console (src/console/api.ts): its
 * own token header, never the user's. The outcome only: no loading events, toasts or logout (the console has its own
 * shell and says what happened itself).
 */
export function sendWithHeaders(
  headers: Record<string, string>,
  method: Method,
  path: string,
  body: object = {},
  signal?: AbortSignal,
): Promise<Outcome> {
  return exchange(method, path, body, signal, headers);
}

/** The request and its envelope read by the SPEC 7 rules; never throws, no side effects beyond the clock. */
async function exchange(
  method: Method,
  path: string,
  body: object,
  signal: AbortSignal | undefined,
  headers?: Record<string, string>,
): Promise<Outcome> {
  let outcome: Outcome;
  try {
    const form = toForm(body);
    const clock = config.clock;
    const sentAt = clock?.localNow() ?? 0;
    const res = await http(apiUrl(path), {
      method,
      ...(method === 'GET' ? { searchParams: form } : { body: form }),
      headers: method === 'GET' ? {} : { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
      ...(signal ? { signal } : {}),
      ...(headers ? { context: { headers } satisfies RequestContext } : {}),
    });
    clock?.observeHttpDate(res.headers.get('date'), sentAt);
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
    if (signal?.aborted) return { kind: 'fail', message: '' };
    outcome = { kind: 'fail', message: apiText(isTimeoutError(err) ? 'timeout' : 'offline') };
  }
  return outcome;
}

/**
 * The side effects of an outcome (SPEC 7), as events the shell acts on: type 999 is `notLoggedIn` (the shell clears
 * the session, toasts and goes to login), a failure with a message is `failed` (toasted); `quiet` skips both.
 */
export function reportOutcome(outcome: Outcome, opts: Pick<CallOptions, 'quiet'> = {}): void {
  if (outcome.kind === 'expired') {
    if (!opts.quiet) apiEvents.emit('notLoggedIn', { message: outcome.message });
  } else if (outcome.kind === 'fail' && !opts.quiet && outcome.message) {
    apiEvents.emit('failed', { message: outcome.message });
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
  const got = await fetchBytes(path, search, signal);
  if ('outcome' in got && got.outcome?.kind === 'expired') reportOutcome(got.outcome);
  return 'blob' in got ? got.blob : null;
}

/** fetchBlob for the support console: its own headers, and the envelope of a refusal instead of any side effect. */
export function fetchBlobWithHeaders(
  headers: Record<string, string>,
  path: string,
  search: Record<string, string>,
  signal?: AbortSignal,
): Promise<{ blob: Blob } | { outcome: Outcome | null }> {
  return fetchBytes(path, search, signal, headers);
}

async function fetchBytes(
  path: string,
  search: Record<string, string>,
  signal?: AbortSignal,
  headers?: Record<string, string>,
): Promise<{ blob: Blob } | { outcome: Outcome | null }> {
  try {
    const res = await http(apiUrl(path), {
      method: 'GET',
      searchParams: search,
      ...(signal ? { signal } : {}),
      ...(headers ? { context: { headers } satisfies RequestContext } : {}),
    });
    // A 999 comes as HTTP 200 with an envelope, so the type tells bytes from an answer.
    if (res.ok && !res.headers.get('content-type')?.includes('json')) return { blob: await res.blob() };
    const raw: unknown = await res.json().catch(() => null);
    const env = anyEnvelope.safeParse(raw);
    return { outcome: env.success ? interpret(env.data, raw) : null };
  } catch {
    return { outcome: null };
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

/** What a typed call answers: the parsed data, or the failure (already toasted unless quiet) and its field. */
export type CallResult<S extends CallSpec> =
  | { ok: true; data: z.output<S['response']> }
  | { ok: false; message: string; field?: string; reason?: string; retryAfter?: number };

/**
 * A refused or unanswered action, as the product screens and machines take it. `reason` is the server's errors-table
 * key; `answered` is false when no answer came at all (offline, timeout, a body that is no envelope: no reason): the
 * server may still have acted, so a retry must carry the same request id.
 */
export interface Refusal {
  ok: false;
  message: string;
  field?: string;
  reason?: string;
  answered: boolean;
}

/** The refusal of a failed call (see Refusal). */
export function refusal(failure: { message: string; field?: string; reason?: string }): Refusal {
  return {
    ok: false,
    message: failure.message,
    ...(failure.field ? { field: failure.field } : {}),
    ...(failure.reason ? { reason: failure.reason } : {}),
    answered: failure.reason !== undefined,
  };
}

/**
 * A typed call: request fields typed by the contract, ok data parsed with the call's response schema. A failure
 * carries the message (already toasted unless quiet) and the field it refers to.
 */
export async function sendCall<S extends CallSpec>(
  path: string,
  spec: S,
  body: z.input<S['request']>,
  opts?: CallOptions,
): Promise<CallResult<S>> {
  const out = await send(spec.method, path, body as object, opts);
  if (out.kind === 'fail') {
    const { kind: _, ...failure } = out;
    return { ok: false, ...failure };
  }
  if (out.kind === 'expired') return { ok: false, message: out.message };
  // An ok answer with a message other than OK is meant for the user (SPEC 7); the data still counts.
  if (out.kind === 'message' && out.message && !opts?.quiet) apiEvents.emit('notice', { message: out.message });
  const parsed = spec.response.safeParse(out.data);
  if (!parsed.success) {
    console.warn(`api ${path}: response does not match the contract`, parsed.error.issues);
    if (!opts?.quiet) apiEvents.emit('failed', { message: FALLBACK_ERROR });
    return { ok: false, message: FALLBACK_ERROR };
  }
  return { ok: true, data: parsed.data as z.output<S['response']> };
}

/** The typed calls of one area's table (protocol: `accountCalls`, `marketCalls`, ...). */
export interface AreaApi<T extends CallTable> {
  /** The parsed data, or the failure and the field it refers to. */
  callApiResult<P extends keyof T & string>(
    path: P,
    body: z.input<T[P]['request']>,
    opts?: CallOptions,
  ): Promise<CallResult<T[P]>>;
  /** SPEC 7's result: the parsed data, or false on any failure (the user has been told). */
  callApi<P extends keyof T & string>(
    path: P,
    body: z.input<T[P]['request']>,
    opts?: CallOptions,
  ): Promise<z.output<T[P]['response']> | false>;
}

/**
 * Binds the typed calls to one area's table. Each core/api module binds its own area's, so a call's schemas travel
 * in the chunk that makes the call, never in the app's entry (DESIGN "Fast on a phone").
 */
export function areaApi<T extends CallTable>(table: T): AreaApi<T> {
  const callApiResult = <P extends keyof T & string>(path: P, body: z.input<T[P]['request']>, opts?: CallOptions) =>
    sendCall(path, table[path] as T[P], body, opts);
  return {
    callApiResult,
    callApi: async (path, body, opts) => {
      const r = await callApiResult(path, body, opts);
      return r.ok ? r.data : false;
    },
  };
}
