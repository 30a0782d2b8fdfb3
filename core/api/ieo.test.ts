import { describe, expect, it } from 'vitest';
import { applyIeo, fetchIeoDetail, fetchIeoProjects, fetchMyIeoOrders, payIeoOrder, pollMyIeoOrders } from './ieo';
import { failAnswer, fakeApiServer, okAnswer } from './testing';

// The envelope rules are core/api/client.test.ts's; here only what is the IEO's: the paths and methods, the fields
// sent, and which failures count as answered (a retried subscription must reuse its id when none came).

const server = fakeApiServer();
const ok = okAnswer;
const fail = failAnswer;
const sent = server.sent;

describe('ieo calls', () => {
  it('reads projects, a project and the caller’s subscriptions, paged by before_id', async () => {
    server.answer = () => ok({ projects: [], next_before_id: null });
    await fetchIeoProjects(null);
    await fetchIeoProjects(12, 10);
    server.answer = () => ok({ orders: [], next_before_id: null });
    await fetchMyIeoOrders(7);
    expect(await pollMyIeoOrders()).toEqual([]);
    server.answer = () => fail('This project does not exist', 'id');
    expect(await fetchIeoDetail(3, { quiet: true })).toBe(false);
    expect(sent).toEqual([
      { path: 'ieo/list', method: 'POST', form: { limit: '20' } },
      { path: 'ieo/list', method: 'POST', form: { limit: '10', before_id: '12' } },
      { path: 'ieo/myApply', method: 'POST', form: { limit: '20', before_id: '7' } },
      { path: 'ieo/myApply', method: 'POST', form: { limit: '100' } },
      { path: 'ieo/detail', method: 'GET', form: { id: '3' } },
    ]);
  });

  it('subscribes with its request id; a refusal is answered, no connection is not', async () => {
    const body = { project_id: '3', quantity: '100.5', request_id: 'req-1' };
    server.answer = () => fail('The quantity is above the limit per user', 'quantity');
    expect(await applyIeo(body)).toEqual({
      ok: false,
      message: 'The quantity is above the limit per user',
      field: 'quantity',
      reason: 'testRefusal',
      answered: true,
    });
    expect(sent.at(-1)).toEqual({ path: 'ieo/apply', method: 'POST', form: body });
    server.answer = () => Promise.reject(new TypeError('network down'));
    expect(await applyIeo(body)).toEqual({ ok: false, message: 'No connection', answered: false });
  });

  it('pays an order by its id', async () => {
    server.answer = () => fail('The payment window of this project has closed', 'id');
    expect(await payIeoOrder(9)).toMatchObject({ ok: false, answered: true, field: 'id' });
    expect(sent.at(-1)).toEqual({ path: 'ieo/pay', method: 'POST', form: { id: '9' } });
  });
});
