import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { migrateToLatest } from '../../migrations';
import { type DatabaseHandle, openSqlite } from '../db/connect';
import {
  claimRequestId,
  confirmRequestId,
  releaseRequestId,
  requestDigest,
  requestFieldNames,
  takesRequestId,
} from './request-ids';

describe('requestDigest', () => {
  it('is the call and its arguments, in any order, without the id and the fund password', () => {
    const a = requestDigest('wallet/out', { amount: '20', coin: 'USDT', request_id: 'x', fund_password: '111111' });
    const b = requestDigest('wallet/out', { coin: 'USDT', fund_password: '222222', request_id: 'y', amount: '20' });
    expect(a).toBe(b);
    expect(requestDigest('wallet/out', { coin: 'USDT', amount: '21' })).not.toBe(a);
    expect(requestDigest('wallet/change', { coin: 'USDT', amount: '20' })).not.toBe(a);
    // A field left out is no field; an empty one is an argument.
    expect(requestDigest('p', { a: '1', b: undefined })).toBe(requestDigest('p', { a: '1' }));
    expect(requestDigest('p', { a: '1', b: '' })).not.toBe(requestDigest('p', { a: '1' }));
  });
});

describe('takesRequestId', () => {
  it('reads the fields through refinements, pipes, unions and intersections', () => {
    const refined = z.object({ amount: z.string(), request_id: z.string() }).check(z.superRefine(() => {}));
    expect(takesRequestId(refined)).toBe(true);
    expect(takesRequestId(z.pipe(z.object({ a: z.string() }), z.object({ a: z.string() })))).toBe(false);
    expect(takesRequestId(z.union([z.object({ a: z.string() }), z.object({ request_id: z.string() })]))).toBe(true);
    expect(requestFieldNames(z.intersection(z.object({ a: z.string() }), z.object({ b: z.string() })))).toEqual([
      'a',
      'b',
    ]);
  });
});

describe('claimRequestId', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = openSqlite(':memory:');
    await migrateToLatest(handle);
    // The claims alone are under test here: no user rows to point at.
    await sql`pragma foreign_keys = off`.execute(handle.db);
  });
  afterAll(() => handle.db.destroy());

  it('claims once; the same call and digest pass again, anything else is requestIdReused', async () => {
    const claim = { userId: 1, requestId: 'r1', path: 'lever/add_margin', digest: 'd1', at: 1 };
    expect(await claimRequestId(handle.db, claim)).toEqual({ fresh: true });
    expect(await claimRequestId(handle.db, { ...claim, at: 2 })).toEqual({ fresh: false });
    await expect(claimRequestId(handle.db, { ...claim, digest: 'd2' })).rejects.toMatchObject({
      key: 'requestIdReused',
    });
    await expect(claimRequestId(handle.db, { ...claim, path: 'wallet/change' })).rejects.toMatchObject({
      key: 'requestIdReused',
    });
    const rows = await handle.db.selectFrom('request_ids').selectAll().execute();
    expect(rows).toEqual([
      { user_id: 1, request_id: 'r1', call_path: 'lever/add_margin', request_digest: 'd1', created_at: 1, applied: 0 },
    ]);
  });

  it('releases a refused claim unless a service confirmed it with its effect', async () => {
    const claim = { userId: 1, requestId: 'r2', path: 'wallet/change', digest: 'd1', at: 1 };
    await claimRequestId(handle.db, claim);
    await releaseRequestId(handle.db, claim);
    // Released: the corrected request may have the id.
    expect(await claimRequestId(handle.db, { ...claim, digest: 'd2' })).toEqual({ fresh: true });
    await confirmRequestId(handle.db, { ...claim, digest: 'd2' });
    await releaseRequestId(handle.db, { ...claim, digest: 'd2' });
    await expect(claimRequestId(handle.db, claim)).rejects.toMatchObject({ key: 'requestIdReused' });
    await expect(confirmRequestId(handle.db, claim)).rejects.toMatchObject({ key: 'requestIdReused' });
    // Confirming a claim nobody made (a concurrent refusal released it) makes it, confirmed.
    await confirmRequestId(handle.db, { ...claim, requestId: 'r3' });
    const r3 = await handle.db.selectFrom('request_ids').selectAll().where('request_id', '=', 'r3').execute();
    expect(r3).toMatchObject([{ call_path: 'wallet/change', request_digest: 'd1', applied: 1 }]);
  });
});
