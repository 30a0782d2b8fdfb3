import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { anyEnvelope } from '../../protocol';
import { type CallPath, calls } from '../../server/domains';
import { MarketFeed } from '../../server/market/feed';
import { MarketSimulator } from '../../server/market/simulator';
import { DATABASES, openTestDatabase, startTestApp, type TestApp, type TestDatabase, uniqueEmail } from './harness';

/**
 * Issue 14's floor for the whole contract: every call of the table (SPEC 7 and ours) answers with the envelope, with
 * or without a session, and no junk input reaches a 5xx. Junk is made from each call's own field names, so a call
 * added later is covered without touching this file.
 */

const JUNK_VALUES = [
  '',
  ' ',
  '-1',
  '0',
  '1e309',
  'NaN',
  '99999999999999999999999999999999',
  // In the format of an id or a cursor but beyond an `integer` column: PostgreSQL errors on the comparison.
  '2147483648',
  '9999999999',
  '1.9999999999',
  '0.000000000000000000001',
  'x'.repeat(3000),
  '<script>alert(1)</script>',
  "' or 1=1 --",
  '../../etc/passwd',
  '\u0000',
  '😀',
  '[object Object]',
];

/** The form field names a call's request schema knows (nothing for schemas that are not plain objects). */
function fieldNames(schema: z.ZodMiniType): string[] {
  return schema instanceof z.ZodMiniObject ? Object.keys(schema.shape) : [];
}

/** Calls whose success would end the suite's session; they run last. */
const SESSION_ENDING = new Set<string>(['user/logout']);

describe.each(DATABASES)('every call on %s', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  let token = '';
  const T0 = Date.UTC(2024, 5, 4, 12);
  let now = T0;
  const paths = (Object.keys(calls) as CallPath[]).sort(
    (a, b) => Number(SESSION_ENDING.has(a)) - Number(SESSION_ENDING.has(b)) || a.localeCompare(b),
  );

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const sim = new MarketSimulator({ seed: 'every-call', now: () => now, backfillDays: 1, alwaysOpen: true });
    const feed = new MarketFeed(sim, () => now);
    t = await startTestApp(database.handle, { market: { feed, record: { now: () => now } } });
    now += 3_000;
    sim.advanceTo(now);
    token = (await t.registerByEmail(uniqueEmail('every'))).token;
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
  });

  /** Sends `fields` to `path` (as a form, or as a JSON body with `json`) and checks the answer is a clean envelope. */
  async function expectEnvelope(path: CallPath, fields: Record<string, unknown>, session: boolean, json = false) {
    const { method } = calls[path];
    const headers: Record<string, string> = { lang: 'de' };
    if (session) headers.authorization = token;
    const form = new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])).toString();
    let payload: string | undefined;
    if (method !== 'GET') {
      headers['content-type'] = json ? 'application/json' : 'application/x-www-form-urlencoded';
      payload = json ? JSON.stringify(fields) : form;
    }
    const response = await t.app.inject({
      method,
      url: method === 'GET' && form ? `/api/${path}?${form}` : `/api/${path}`,
      headers,
      payload,
    });
    const where = `${method} ${path} ${session ? 'with' : 'without'} session: ${payload ?? form}`.slice(0, 300);
    expect(response.statusCode, where).toBeLessThan(500);
    const body: unknown = response.json();
    expect(anyEnvelope.safeParse(body).success, `${where} → ${response.body.slice(0, 200)}`).toBe(true);
    expect(response.body, where).not.toMatch(/\bstack\b|at \w+ \(|node_modules|\.ts:\d+/);
    return body as { type: string | number; message: string };
  }

  it('answers every call without a session: a call that needs one says so (type 999)', async () => {
    for (const path of paths) {
      const body = await expectEnvelope(path, {}, false);
      if (calls[path].auth) expect(body.type, path).toBe(999);
    }
  });

  // Thousands of requests, one after the other: on PostgreSQL beside the client build on two cores, past 30 s.
  it('answers junk in every field with an envelope, never a 5xx, with and without a session', async () => {
    for (const path of paths) {
      const names = fieldNames(calls[path].request);
      for (const session of [false, true]) {
        for (const value of JUNK_VALUES) {
          await expectEnvelope(path, Object.fromEntries(names.map((n) => [n, value])), session);
        }
        // Unknown fields, repeated fields and JSON bodies with numbers, arrays and objects where strings belong.
        await expectEnvelope(path, { unexpected: 'x', __proto__x: '1' }, session);
        if (calls[path].method !== 'GET') {
          for (const value of [1.5, -1, [1, 2], { a: 1 }, null, true]) {
            await expectEnvelope(path, Object.fromEntries(names.map((n) => [n, value])), session, true);
          }
        }
      }
    }
  }, 180_000);
});
