import * as api from '../../../core/api/account';
import type { CallOptions } from '../../../core/api/client';
import type { accountCalls } from '../../../protocol/account';
import type { CallRequest } from '../../../protocol/call-spec';
import { clearSession, setSession } from '../../state/session';

/** Login, registration and logout with their effect on the stored session (core/api only talks to the server). */

export async function login(body: CallRequest<typeof accountCalls, 'user/login'>, opts?: CallOptions) {
  const r = await api.login(body, opts);
  if (r.ok) setSession(r.data.token, r.data.user);
  return r;
}

export async function register(body: CallRequest<typeof accountCalls, 'user/register'>) {
  const r = await api.register(body);
  if (r.ok) setSession(r.data.token, r.data.user);
  return r;
}

/** Ends the session on the server (best effort) and locally. */
export async function logout(): Promise<void> {
  await api.logout();
  clearSession();
}
