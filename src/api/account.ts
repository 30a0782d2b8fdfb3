import type { AreaCode, CodeScene, SessionResponse } from '../../protocol/account';
import type { CallRequest } from '../../protocol/calls';
import { clearSession, setSession, setUser } from '../state/session';
import { onClearCache } from '../state/storage';
import { type CallOptions, callApi, callApiResult } from './client';

let areaCodes: Promise<AreaCode[] | false> | null = null;
onClearCache(() => {
  areaCodes = null;
});

/** Country calling codes; fetched once per page life (and again after "clear cache" or a failure). */
export function fetchAreaCodes(): Promise<AreaCode[] | false> {
  if (!areaCodes) {
    areaCodes = callApi('area_code', {}, { loading: false }).then((r) => {
      if (r === false) areaCodes = null;
      return r;
    });
  }
  return areaCodes;
}

export type Contact = { type: 'mobile'; area_code: string; mobile: string } | { type: 'email'; email: string };

/**
 * Sends a verification code to a phone or e-mail for a scene. `retryAfter` is the wait before the next send,
 * also when the server refused a send as too soon, so the button can count down either way.
 */
export async function sendCode(contact: Contact, scene: CodeScene): Promise<{ sent: boolean; retryAfter: number }> {
  const r =
    contact.type === 'mobile'
      ? await callApiResult('sms_send', { area_code: contact.area_code, mobile: contact.mobile, scene })
      : await callApiResult('email_send', { email: contact.email, scene });
  return r.ok ? { sent: true, retryAfter: r.data.retry_after } : { sent: false, retryAfter: r.retryAfter ?? 0 };
}

/** Sends a code to the logged-in user's own phone or e-mail (same result shape as sendCode, plus where it went). */
export async function sendOwnCode(scene: 'fund' | 'address') {
  const r = await callApiResult('sms_other_mail', { scene });
  return r.ok
    ? { sent: true as const, retryAfter: r.data.retry_after, to: r.data.to }
    : { sent: false as const, retryAfter: r.retryAfter ?? 0 };
}

function startSession(r: SessionResponse): SessionResponse {
  setSession(r.token, r.user);
  return r;
}

export async function login(body: CallRequest<'user/login'>, opts?: CallOptions) {
  const r = await callApiResult('user/login', body, opts);
  if (r.ok) startSession(r.data);
  return r;
}

export async function register(body: CallRequest<'user/register'>) {
  const r = await callApiResult('user/register', body);
  if (r.ok) startSession(r.data);
  return r;
}

export function resetPassword(body: CallRequest<'user/forget'>) {
  return callApiResult('user/forget', body);
}

/** Ends the session on the server (best effort) and locally. */
export async function logout(): Promise<void> {
  await callApi('user/logout', {}, { quiet: true });
  clearSession();
}

export function setServerLang(lang: CallRequest<'set/lang'>['lang']) {
  return callApi('set/lang', { lang }, { loading: false, quiet: true });
}

/** The account overview; refreshes the stored user as a side effect. */
export async function fetchAccount() {
  const r = await callApi('user/center2', {});
  if (r !== false) setUser(r.user);
  return r;
}

export function changePassword(body: CallRequest<'safe/update_password'>) {
  return callApiResult('safe/update_password', body);
}

export async function hasFundPassword(): Promise<boolean | null> {
  const r = await callApi('user/has_password', {}, { loading: false });
  return r === false ? null : r.has_password;
}

export function setFundPassword(body: CallRequest<'user/e_pwd'>) {
  return callApiResult('user/e_pwd', body);
}
