import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withAccount } from '../domains/account';
import { Ledger } from '../ledger/ledger';
import type { DatabaseHandle } from '../platform/db/connect';
import { Sessions } from '../platform/security/sessions';
import { insertUser, openMemoryDatabase } from '../testing';
import { runOps } from './cli';

describe('ops cli', () => {
  let handle: DatabaseHandle;
  let lines: string[];
  const run = (...args: string[]) => runOps(args, handle.db, (line) => lines.push(line));
  beforeEach(async () => {
    handle = await openMemoryDatabase();
    lines = [];
  });
  afterEach(() => handle.db.destroy());

  it('help, and unknown commands', async () => {
    expect(await run('help')).toBe(0);
    expect(lines.join('\n')).toContain('sessions revoke');
    expect(await run()).toBe(0);
    expect(await run('frobnicate')).toBe(2);
    expect(lines.at(-1)).toContain('unknown command: frobnicate');
    // Options are read by util.parseArgs: help anywhere, anything else is a usage mistake; `--` ends options.
    expect(await run('kyc', '--help')).toBe(0);
    expect(lines.at(-1)).toContain('kyc reject <id> <reason...>');
    expect(await run('kyc', 'list', '--force')).toBe(2);
    expect(lines.at(-1)).toContain("Unknown option '--force'");
    expect(await run('audit', '--', '-5')).toBe(2);
    expect(lines.at(-1)).toBe('usage: npm run ops -- audit [count]');
  });

  it('invite prints the platform code, creating it on first use', async () => {
    expect(await run('invite')).toBe(0);
    const code = lines[0];
    expect(code).toMatch(/^[A-Z2-9]{8}$/);
    await run('invite');
    expect(lines[1]).toBe(code);
  });

  it('codes prints the newest outbox codes, optionally for one address', async () => {
    await run('codes');
    expect(lines).toEqual(['no codes in the outbox']);
    await withAccount(handle.db)
      .insertInto('code_outbox')
      .values([
        { channel: 'email', address: 'a@example.com', scene: 'register', code: '111111', created_at: 1 },
        { channel: 'sms', address: '+4915100000001', scene: 'forget', code: '222222', created_at: 2 },
      ])
      .execute();
    lines = [];
    await run('codes');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('222222');
    lines = [];
    await run('codes', 'A@Example.com');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/111111 +register +email +a@example\.com/);
  });

  it('sessions revoke ends every session of a user by id or username', async () => {
    const id = await insertUser(handle, { username: 'u12345678' });
    const sessions = new Sessions(handle.db, Date.now);
    const token = await sessions.create(id);
    await sessions.create(id);
    expect(await run('sessions', 'revoke', 'U12345678')).toBe(0);
    expect(lines.at(-1)).toBe(`revoked 2 session(s) of user ${id} (u12345678)`);
    expect((await sessions.resolve(token)).state).toBe('invalid');
    await sessions.create(id);
    expect(await run('sessions', 'revoke', String(id))).toBe(0);
    expect(lines.at(-1)).toContain('revoked 1 session(s)');
    expect(await run('sessions', 'revoke', 'nobody')).toBe(1);
    expect(await run('sessions', 'revoke')).toBe(2);
  });

  it('ledger check passes a sound ledger and names each difference of a damaged one', async () => {
    const id = await insertUser(handle);
    const ledger = new Ledger(handle);
    await ledger.credit({
      userId: id,
      requestId: 'd1',
      kind: 'deposit',
      currency: 'USDT',
      amount: 2_500_000,
      from: 'deposits_clearing',
      to: 'coin',
    });
    expect(await run('ledger', 'check')).toBe(0);
    expect(lines[0]).toMatch(/^ledger: 2 accounts, 2 postings, 0 open holds/);
    expect(lines).toContainEqual(expect.stringMatching(/^real +USDT +0\.000000 +0\.000000 +0\.000000$/));
    expect(lines.at(-1)).toMatch(/^consistent/);

    const [coin] = await ledger.balances(id);
    await sql`update ledger_accounts set balance = balance - 1 where user_id = ${id}`.execute(handle.db);
    lines = [];
    expect(await run('ledger', 'check')).toBe(1);
    expect(lines.slice(-2)).toEqual([
      '1 problem(s):',
      expect.stringMatching(/balance 2499999 but postings sum to 2500000$/),
    ]);
    expect(coin?.balance).toBe(2_500_000);

    expect(await run('ledger')).toBe(2);
    expect(lines.join('\n')).toContain('ledger check');
  });
});
