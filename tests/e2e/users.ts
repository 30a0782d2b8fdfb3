import type { Page } from 'playwright-core';
import { INVITE_CODE, latestCode, type RunningServer } from './harness';

/** What /api answers: the envelope, data left to the caller. */
export interface ApiAnswer {
  type: string | number;
  message: string;
  data: unknown;
}

export interface TestSession {
  token: string;
  user: { id: number } & Record<string, unknown>;
}

/** A form-encoded POST to the server's /api, as the app sends it (English messages). */
export async function postApi(
  server: Pick<RunningServer, 'url'>,
  path: string,
  fields: Record<string, string>,
  token?: string,
): Promise<ApiAnswer> {
  const res = await fetch(`${server.url}/api/${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      lang: 'en',
      ...(token ? { authorization: token } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
  return (await res.json()) as ApiAnswer;
}

/** A GET of /api as the app makes it (the fields in the query, English messages): its data, or a throw naming why. */
export async function getApiData<T>(
  server: Pick<RunningServer, 'url'>,
  path: string,
  fields: Record<string, string>,
  token?: string,
): Promise<T> {
  const res = await fetch(`${server.url}/api/${path}?${new URLSearchParams(fields)}`, {
    headers: { lang: 'en', ...(token ? { authorization: token } : {}) },
  });
  const body = (await res.json()) as ApiAnswer;
  if (body.type !== 'ok') throw new Error(`${path}: ${body.message}`);
  return body.data as T;
}

/** Registers a user by e-mail through the API (registration itself has its own browser tests). */
export async function registerUser(
  server: Pick<RunningServer, 'url' | 'dataDir'>,
  email: string,
  password = 'secret1',
): Promise<TestSession> {
  const sent = await postApi(server, 'email_send', { email, scene: 'register' });
  if (sent.type !== 'ok') throw new Error(`email_send failed: ${sent.message}`);
  const registered = await postApi(server, 'user/register', {
    type: 'email',
    email,
    code: latestCode(server.dataDir, email),
    password,
    repassword: password,
    invite_code: INVITE_CODE,
    agree: '1',
  });
  if (registered.type !== 'ok') throw new Error(`user/register failed: ${registered.message}`);
  return registered.data as TestSession;
}

/** A registered user whose session the page holds from its first load (the stored session the app reads at start). */
export async function loggedInUser(
  server: RunningServer,
  page: Page,
  email: string,
  options: { lang?: 'de' | 'en'; theme?: 'dark' | 'light' } = {},
): Promise<TestSession> {
  const session = await registerUser(server, email);
  const app = JSON.stringify({ version: '1.0.0', theme: options.theme ?? 'dark', ...session });
  await page.addInitScript(
    ([lang, stored]) => {
      localStorage.setItem('lang', lang ?? 'en');
      localStorage.setItem('tw.app', stored ?? '');
    },
    [options.lang ?? 'en', app],
  );
  return session;
}
