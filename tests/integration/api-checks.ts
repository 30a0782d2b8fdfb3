import { expect } from 'vitest';
import { okEnvelope } from '../../protocol';
import { type CallData, type CallPath, calls } from '../../server/domains';
import { translate } from '../../server/platform/i18n/messages';
import type { TestApp } from './harness';

/**
 * The two ways a test calls /api and checks the envelope: an ok answer parsed with the call's own response schema, or
 * a refusal whose message is `key` in English (and, when given, whose `field` names the form field).
 */
export function apiChecks(app: () => TestApp) {
  async function ok<P extends CallPath>(path: P, fields: Record<string, string>, token?: string) {
    const { status, body } = await app().call(path, fields, token === undefined ? {} : { token });
    expect(status).toBe(200);
    expect(body, JSON.stringify(body)).toMatchObject({ type: 'ok' });
    return okEnvelope(calls[path].response).parse(body).data as CallData<P>;
  }

  async function refused(path: CallPath, fields: Record<string, string>, token: string, key: string, field?: string) {
    const { body } = await app().call(path, fields, { token });
    expect(body.type, JSON.stringify(body)).not.toBe('ok');
    expect(body.message).toBe(translate('en', key));
    // A business refusal names its key for client code; a 999 (no session) has none.
    if (body.type === 'error') expect(body.reason).toBe(key);
    if (field) expect(body.field).toBe(field);
  }

  return { ok, refused };
}
