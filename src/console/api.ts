import { proxy } from 'valtio';
import type { z } from 'zod/mini';
import { fetchBlobWithHeaders, sendWithHeaders } from '../../core/api/client';
import { LANG_HEADER } from '../../protocol/envelope';
import { OPS_TOKEN_HEADER, type OpsOperator, opsConsoleCalls } from '../../protocol/ops-console';
import { opsInspectionCalls } from '../../protocol/ops-inspection';
import { opsNewsCalls } from '../../protocol/ops-news';
import { opsAppealCalls, opsHelpCalls, opsSupportCalls } from '../../protocol/ops-support';
import { currentLang, errorText } from '../lib/i18n';

/**
 * The console's calls (/api/ops/...): through core/api/client.ts (the one ky instance), with the console's own token
 * in X-Ops-Token and never the user's Authorization header. The token lives in sessionStorage: one tab, one sign-in,
 * gone with the tab. A 999 answer ends the console session here (the login screen shows why).
 */

const STORAGE_KEY = 'tw.ops.token';

function readToken(): string | null {
  try {
    return globalThis.sessionStorage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

function writeToken(token: string | null): void {
  try {
    if (token) globalThis.sessionStorage?.setItem(STORAGE_KEY, token);
    else globalThis.sessionStorage?.removeItem(STORAGE_KEY);
  } catch {
    // No storage: the session lasts as long as the page.
  }
}

export interface ConsoleSession {
  token: string | null;
  /** Who is signed in, once the server said so (ops/login or ops/me). */
  operator: OpsOperator | null;
  /** Why the last session ended (shown on the login screen). */
  ended: string | null;
}

export const consoleSession = proxy<ConsoleSession>({ token: readToken(), operator: null, ended: null });

export function signedIn(token: string, operator: OpsOperator): void {
  writeToken(token);
  consoleSession.token = token;
  consoleSession.operator = operator;
  consoleSession.ended = null;
}

export function signedOut(reason: string | null = null): void {
  writeToken(null);
  consoleSession.token = null;
  consoleSession.operator = null;
  consoleSession.ended = reason;
}

/** The console's request headers: its own token and the language (never the user's Authorization). */
export const consoleHeaders = () => ({ [OPS_TOKEN_HEADER]: consoleSession.token ?? '', [LANG_HEADER]: currentLang() });
const headers = consoleHeaders;

/** Every console call the client makes: the console's own and the sections of other modules. */
const calls = {
  ...opsConsoleCalls,
  ...opsSupportCalls,
  ...opsAppealCalls,
  ...opsHelpCalls,
  ...opsNewsCalls,
  ...opsInspectionCalls,
} as const;
type OpsConsoleCalls = typeof calls;
export type OpsConsolePath = keyof OpsConsoleCalls;

export type OpsData<P extends OpsConsolePath> = z.output<OpsConsoleCalls[P]['response']>;
export type OpsRequest<P extends OpsConsolePath> = z.input<OpsConsoleCalls[P]['request']>;

export type OpsResult<P extends OpsConsolePath> =
  | { ok: true; data: OpsData<P> }
  | { ok: false; message: string; field?: string; expired?: true };

/** One console call; a 999 answer signs the console out. Never throws. */
export async function opsCall<P extends OpsConsolePath>(
  path: P,
  body: OpsRequest<P>,
  signal?: AbortSignal,
): Promise<OpsResult<P>> {
  const spec = calls[path];
  const out = await sendWithHeaders(headers(), spec.method, path, body as object, signal);
  if (out.kind === 'expired') {
    signedOut(out.message);
    return { ok: false, message: out.message, expired: true };
  }
  if (out.kind === 'fail') return { ok: false, message: out.message, ...(out.field ? { field: out.field } : {}) };
  const parsed = spec.response.safeParse(out.data);
  if (!parsed.success) {
    console.warn(`ops ${path}: response does not match the contract`, parsed.error.issues);
    return { ok: false, message: errorText('serverError') };
  }
  return { ok: true, data: parsed.data as OpsData<P> };
}

/** A failed call as an Error (for TanStack Query), keeping the server's message. */
export class OpsCallError extends Error {}

/** opsCall for queries: the data, or a throw with the message. */
export async function opsQuery<P extends OpsConsolePath>(path: P, body: OpsRequest<P>, signal?: AbortSignal) {
  const r = await opsCall(path, body, signal);
  if (!r.ok) throw new OpsCallError(r.message);
  return r.data;
}

/** A review image (GET with the console's headers) as an object URL; null when it is not there (any more). */
export async function opsImageUrl(path: string, search: Record<string, string>, signal?: AbortSignal) {
  const got = await fetchBlobWithHeaders(headers(), path, search, signal);
  if ('blob' in got) return URL.createObjectURL(got.blob);
  if (got.outcome?.kind === 'expired') signedOut(got.outcome.message);
  return null;
}
