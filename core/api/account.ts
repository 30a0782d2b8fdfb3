import { type AreaCode, accountCalls, type CodeScene } from '../../protocol/account';
import type { CallRequest } from '../../protocol/call-spec';
import { areaApi, type CallOptions } from './client';

const { callApi, callApiResult } = areaApi(accountCalls);

/** Country calling codes (the app keeps them for the page's life: src/data/areaCodes.ts). */
export function fetchAreaCodes(): Promise<AreaCode[] | false> {
  return callApi('area_code', {}, { loading: false });
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

/** Logs in; the app starts the session from the answer (src/features/account/session.ts). */
export function login(body: CallRequest<typeof accountCalls, 'user/login'>, opts?: CallOptions) {
  return callApiResult('user/login', body, opts);
}

/** Registers and logs in; the app starts the session from the answer. */
export function register(body: CallRequest<typeof accountCalls, 'user/register'>) {
  return callApiResult('user/register', body);
}

export function resetPassword(body: CallRequest<typeof accountCalls, 'user/forget'>) {
  return callApiResult('user/forget', body);
}

/** Ends the session on the server (best effort); the app forgets it locally. */
export async function logout(): Promise<void> {
  await callApi('user/logout', {}, { quiet: true });
}

export function setServerLang(lang: CallRequest<typeof accountCalls, 'set/lang'>['lang']) {
  return callApi('set/lang', { lang }, { loading: false, quiet: true });
}

/** The account overview (its `user` is the freshest copy of the stored user). */
export function fetchAccount() {
  return callApi('user/center2', {});
}

export function changePassword(body: CallRequest<typeof accountCalls, 'safe/update_password'>) {
  return callApiResult('safe/update_password', body);
}

export async function hasFundPassword(): Promise<boolean | null> {
  const r = await callApi('user/has_password', {}, { loading: false });
  return r === false ? null : r.has_password;
}

export function setFundPassword(body: CallRequest<typeof accountCalls, 'user/e_pwd'>) {
  return callApiResult('user/e_pwd', body);
}
