import { afterEach, beforeEach, vi } from 'vitest';
import { configureApi } from './client';

/** Unit tests of an area's calls: envelopes as the server writes them. */
export const okAnswer = (data: unknown) =>
  new Response(JSON.stringify({ type: 'ok', code: 1, message: 'OK', data }), {
    headers: { 'content-type': 'application/json' },
  });
/** A refusal as the server words it: the message in the user's language and the errors-table key it came from. */
export const failAnswer = (message: string, field?: string, reason = 'testRefusal') =>
  new Response(JSON.stringify({ type: 'error', code: 0, message, reason, ...(field ? { field } : {}) }), {
    headers: { 'content-type': 'application/json' },
  });

export interface SentCall {
  path: string;
  method: string;
  form: Record<string, string>;
}

/**
 * A `fetch` stand-in for the file's tests (set up before each, removed after): records every call's path, method and
 * fields (query or form) and answers with what the test sets in `server.answer`.
 */
export function fakeApiServer() {
  const server = {
    sent: [] as SentCall[],
    answer: (_path: string): Response | Promise<Response> => okAnswer(null),
  };
  beforeEach(() => {
    server.sent.length = 0;
    configureApi({ text: (key) => (key === 'offline' ? 'No connection' : '') });
    vi.stubGlobal('fetch', async (input: Request) => {
      const url = new URL(input.url);
      const form = Object.fromEntries(
        input.method === 'GET' ? url.searchParams : new URLSearchParams(await input.clone().text()),
      );
      const path = url.pathname.replace('/api/', '');
      server.sent.push({ path, method: input.method, form });
      return server.answer(path);
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });
  return server;
}
