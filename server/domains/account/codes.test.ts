import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../platform/db/connect';
import { BusinessError } from '../../platform/errors';
import { RateLimiter } from '../../platform/security/rate-limit';
import { openMemoryDatabase } from '../../testing';
import type { CodeMessage, CodeSender } from './code-sender';
import { CODE_MAX_TRIES, CODE_TTL_MS, CodeService } from './codes';
import { emailContact } from './contact';
import { DEFAULT_ACCOUNT_LIMITS } from './limits';
import { withAccount } from './tables';

/** Keeps what would have been delivered. */
class Inbox implements CodeSender {
  readonly messages: CodeMessage[] = [];
  async send(message: CodeMessage) {
    this.messages.push(message);
  }
  get last() {
    return this.messages.at(-1)?.code ?? '';
  }
}

const failsWith = async (promise: Promise<unknown>, key: string) => {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(BusinessError);
  expect((error as BusinessError).key).toBe(key);
  return error as BusinessError;
};

describe('CodeService', () => {
  let handle: DatabaseHandle;
  let clock: number;
  let inbox: Inbox;
  let codes: CodeService;
  const alice = emailContact('alice@example.com');
  const request = { ip: '10.0.0.1', lang: 'en' as const, deliver: true };

  beforeEach(async () => {
    handle = await openMemoryDatabase();
    clock = 5_000_000;
    inbox = new Inbox();
    const now = () => clock;
    codes = new CodeService({
      db: handle.db,
      limiter: new RateLimiter(handle, now),
      sender: inbox,
      limits: DEFAULT_ACCOUNT_LIMITS,
      now,
      log: pino({ level: 'silent' }),
    });
  });
  afterEach(() => handle.db.destroy());

  const consume = (id: number) => handle.db.transaction().execute((trx) => codes.consume(trx, id));

  it('sends 6 random digits and stores only a hash', async () => {
    expect(await codes.send(alice, 'register', request)).toEqual({ retryAfter: 60 });
    expect(inbox.messages).toHaveLength(1);
    expect(inbox.messages[0]).toMatchObject({
      channel: 'email',
      address: 'alice@example.com',
      scene: 'register',
      lang: 'en',
    });
    expect(inbox.last).toMatch(/^\d{6}$/);
    const rows = await withAccount(handle.db).selectFrom('verification_codes').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(inbox.last);
  });

  it('checks and consumes a code exactly once', async () => {
    await codes.send(alice, 'register', request);
    const id = await codes.check(alice, 'register', inbox.last);
    await consume(id);
    await failsWith(consume(id), 'codeWrong');
    await failsWith(codes.check(alice, 'register', inbox.last), 'codeWrong');
  });

  it('binds a code to its address and scene', async () => {
    await codes.send(alice, 'register', request);
    await failsWith(codes.check(emailContact('bob@example.com'), 'register', inbox.last), 'codeWrong');
    await failsWith(codes.check(alice, 'forget', inbox.last), 'codeWrong');
    expect(await codes.check(alice, 'register', inbox.last)).toBeGreaterThan(0);
  });

  it('expires after 10 minutes', async () => {
    await codes.send(alice, 'fund', request);
    clock += CODE_TTL_MS;
    await failsWith(codes.check(alice, 'fund', inbox.last), 'codeWrong');
  });

  it(`allows ${CODE_MAX_TRIES} attempts, then the code is dead`, async () => {
    await codes.send(alice, 'register', request);
    const wrong = inbox.last === '000000' ? '111111' : '000000';
    for (let i = 1; i < CODE_MAX_TRIES; i++) await failsWith(codes.check(alice, 'register', wrong), 'codeWrong');
    await failsWith(codes.check(alice, 'register', wrong), 'codeTooManyTries');
    const error = await failsWith(codes.check(alice, 'register', inbox.last), 'codeTooManyTries');
    expect(error.field).toBe('code');
  });

  it('parallel guesses cannot exceed the attempt limit', async () => {
    await codes.send(alice, 'register', request);
    const wrong = inbox.last === '000000' ? '111111' : '000000';
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => codes.check(alice, 'register', wrong)));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    const row = await withAccount(handle.db).selectFrom('verification_codes').select('tries').executeTakeFirstOrThrow();
    expect(row.tries).toBe(CODE_MAX_TRIES);
  });

  it('a new code replaces the old one', async () => {
    await codes.send(alice, 'register', request);
    const first = inbox.last;
    clock += 60_000;
    await codes.send(alice, 'register', request);
    if (first !== inbox.last) await failsWith(codes.check(alice, 'register', first), 'codeWrong');
    expect(await codes.check(alice, 'register', inbox.last)).toBeGreaterThan(0);
    expect(await withAccount(handle.db).selectFrom('verification_codes').selectAll().execute()).toHaveLength(1);
  });

  it('deliver: false counts against the limits but stores and sends nothing', async () => {
    await codes.send(alice, 'forget', { ...request, deliver: false });
    expect(inbox.messages).toHaveLength(0);
    expect(await withAccount(handle.db).selectFrom('verification_codes').selectAll().execute()).toHaveLength(0);
    const refused = await failsWith(codes.send(alice, 'forget', request), 'codeRateLimited');
    expect(refused.data).toEqual({ retry_after: 60 });
  });

  it('a failing sender is reported as codeSendFailed', async () => {
    const broken = new CodeService({
      db: handle.db,
      limiter: new RateLimiter(handle, () => clock),
      sender: { send: () => Promise.reject(new Error('smtp down')) },
      limits: DEFAULT_ACCOUNT_LIMITS,
      now: () => clock,
      log: pino({ level: 'silent' }),
    });
    await failsWith(broken.send(alice, 'register', request), 'codeSendFailed');
  });
});
