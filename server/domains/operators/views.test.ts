// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../migrations';
import { type DatabaseHandle, openSqlite } from '../../platform/db/connect';
import { OpsViewLog } from './views';

describe('the audit of console reads', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = openSqlite(':memory:');
    await migrateToLatest(handle);
  });
  afterAll(async () => {
    await handle.db.destroy();
  });

  const entries = () =>
    handle.db.selectFrom('ops_audit').select(['action', 'operator', 'detail']).orderBy('id').execute();

  it('records a view once per session, a view of other rows again, and a list that showed no row not at all', async () => {
    const log = new OpsViewLog(handle, () => 1_000);
    const session = { id: 1, operator: { name: 'erika' } };
    const queue = (ids: number[]) => ({
      action: 'withdrawals.view',
      subjectType: 'withdrawals',
      subjectId: 'pending',
      detail: { ids },
    });
    await log.record(session, queue([]));
    expect(await entries()).toEqual([]);
    await log.record(session, queue([7]));
    await log.record(session, queue([7]));
    await log.record(session, queue([7, 8]));
    await log.record(session, queue([]));
    expect(await entries()).toEqual([
      { action: 'withdrawals.view', operator: 'erika', detail: JSON.stringify({ ids: [7] }) },
      { action: 'withdrawals.view', operator: 'erika', detail: JSON.stringify({ ids: [7, 8] }) },
    ]);
  });
});
