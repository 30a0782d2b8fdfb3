import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OPS_DEPOSIT_PROOF_PATH,
  OPS_KYC_PHOTO_PATH,
  OPS_TOKEN_HEADER,
  type OpsConsolePath,
  type OpsRole,
  opsConsoleCalls,
} from '../../protocol/ops-console';
import { PasswordHasher } from '../../server/domains/account';
import { CardVault, readKeyFile, runDataKeyCommand } from '../../server/domains/bank-cards';
import { approveDeposit, setDepositAddress, withFunding } from '../../server/domains/funding';
import { approveVerification, rejectVerification, withIdentity } from '../../server/domains/identity';
import {
  createOperator,
  disableOperator,
  type OperatorServices,
  openTotpSecret,
  operatorSealedData,
  runOperatorsCommand,
  setOperatorRoles,
  totpCode,
  withOperators,
} from '../../server/domains/operators';
import { withLedger } from '../../server/ledger';
import { parseCommandLine } from '../../server/platform/ops/commands';
import {
  DATABASES,
  type Envelope,
  openTestDatabase,
  startTestApp,
  TEST_HASH_COST,
  type TestApp,
  type TestDatabase,
  uniqueEmail,
} from './harness';
import { fakeJpeg, uploadedId } from './uploads-helpers';

/**
 * The support console's server side over the real app (buildApp): a user's token opens nothing under /api/ops; each
 * role-gated call refuses an operator without the role and hands out no data; the login (name, password, TOTP) refuses
 * and audits a wrong password, a wrong code and a code used already; a deposit approved and a verification rejected
 * through the console change what the ops CLI's functions change, audited with the operator's name; sessions end
 * when idle, at their absolute end, at logout and when the operator is disabled. The clock is the test's.
 */

const PLATFORM_ERC20 = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const BASIC = {
  country: 'DE',
  name: 'Erika Mustermann',
  id_number: 'L01X00T47',
  address: 'Heidestraße 17, 51147 Köln',
  consent: '1',
};
const PASSWORD = 'correct horse battery';
const MINUTE = 60_000;

let serial = 0;
const ethHash = () => `0x${(++serial).toString(16).padStart(64, 'b')}`;
/** Each test logs in from its own address, so the per-address login limit of one never holds up another. */
const nextIp = () => `10.0.${++serial % 250}.${(serial % 200) + 1}`;

interface Operator {
  name: string;
  secret: string;
}

describe.each(DATABASES)('support console on %s', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  let s: OperatorServices;
  const dataKey = new Uint8Array(randomBytes(32));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-it-ops-'));

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    t = await startTestApp(database.handle, { uploadsDir: dir, dataKey });
    s = {
      database: database.handle,
      now: t.clock.now,
      hasher: new PasswordHasher(TEST_HASH_COST),
      vault: new CardVault(dataKey),
    };
    expect((await setDepositAddress(t.db, 'USDT', 'ERC20', PLATFORM_ERC20)).ok).toBe(true);
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A console call as the console sends it: its method, form fields, the console token (or whatever a test sends). */
  async function ops(
    callPath: OpsConsolePath | typeof OPS_KYC_PHOTO_PATH | typeof OPS_DEPOSIT_PROOF_PATH,
    fields: Record<string, string> = {},
    o: { token?: string; authorization?: string; ip?: string; lang?: string } = {},
  ) {
    const method = callPath in opsConsoleCalls ? opsConsoleCalls[callPath as OpsConsolePath].method : 'GET';
    const headers: Record<string, string> = { lang: o.lang ?? 'en' };
    if (o.token !== undefined) headers[OPS_TOKEN_HEADER] = o.token;
    if (o.authorization !== undefined) headers.authorization = o.authorization;
    const query = new URLSearchParams(fields).toString();
    if (method !== 'GET') headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await t.app.inject({
      method,
      url: method === 'GET' && query ? `/api/${callPath}?${query}` : `/api/${callPath}`,
      headers,
      ...(method === 'GET' ? {} : { payload: query }),
      remoteAddress: o.ip ?? '127.0.0.1',
    });
    const json = response.headers['content-type']?.toString().includes('json');
    return {
      status: response.statusCode,
      body: (json ? response.json() : {}) as Envelope,
      raw: response.rawPayload,
      type: response.headers['content-type'],
    };
  }

  let opSerial = 0;
  async function operator(roles: OpsRole[]): Promise<Operator> {
    const created = await createOperator(s, { name: `op${++opSerial}-${kind}`, roles, password: PASSWORD });
    if (!created.ok) throw new Error(created.problem);
    return { name: created.operator.name, secret: created.secret };
  }

  /** Logs in with the code of the current step; a second login of one operator needs the next step (advance 30 s). */
  async function login(op: Operator, ip = nextIp()): Promise<string> {
    const r = await ops(
      'ops/login',
      { name: op.name, password: PASSWORD, code: totpCode(op.secret, t.clock.now()) },
      { ip },
    );
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ type: 'ok' });
    return (r.body.data as { token: string }).token;
  }

  const audit = () => t.db.selectFrom('ops_audit').selectAll().orderBy('id').execute();
  const callPaths = Object.keys(opsConsoleCalls) as OpsConsolePath[];
  /** Every call that needs a session (logout last: it ends the session it is sent with). */
  const gatedPaths = callPaths
    .filter((p) => opsConsoleCalls[p].access !== 'public')
    .sort((a, b) => Number(a === 'ops/logout') - Number(b === 'ops/logout'));
  /** Plausible fields for each call, so a refusal is never just the validation's. */
  const fieldsOf = (p: string): Record<string, string> =>
    p.endsWith('/reject') ? { id: '999999', reason: 'blurred' } : p.endsWith('/approve') ? { id: '999999' } : {};

  it("a user's session opens nothing under /api/ops, in any header", async () => {
    const user = await t.registerByEmail(uniqueEmail('opsuser'));
    for (const p of [...gatedPaths, OPS_KYC_PHOTO_PATH, OPS_DEPOSIT_PROOF_PATH] as const) {
      const fields =
        p === OPS_KYC_PHOTO_PATH
          ? { id: '1', side: 'front' }
          : p === OPS_DEPOSIT_PROOF_PATH
            ? { id: '1' }
            : fieldsOf(p);
      for (const sent of [
        { authorization: user.token },
        { authorization: `Bearer ${user.token}` },
        { token: user.token },
      ]) {
        const r = await ops(p, fields, sent);
        expect({ p, sent: Object.keys(sent), body: r.body }).toMatchObject({
          p,
          body: { type: 999, code: 0 },
        });
        expect(r.body.data).toBeUndefined();
      }
    }
    // Nor does the user's login name and password.
    const refused = await ops(
      'ops/login',
      { name: user.user.username, password: 'secret1', code: '123456' },
      { ip: nextIp() },
    );
    expect(refused.body).toMatchObject({
      type: 'error',
      message: expect.stringContaining('Name, password or code is wrong'),
    });
    expect(await withOperators(t.db).selectFrom('operator_sessions').select('id').execute()).toHaveLength(0);
  });

  it('an operator without the role is refused each role-gated call, and gets no data', async () => {
    const support = await operator(['support']);
    const reviewer = await operator(['reviewer']);
    const admin = await operator(['admin']);
    const tokens = { support: await login(support), reviewer: await login(reviewer), admin: await login(admin) };
    for (const p of [OPS_KYC_PHOTO_PATH, OPS_DEPOSIT_PROOF_PATH] as const) {
      const r = await ops(p, { id: '1', side: 'front' }, { token: tokens.support, lang: 'de' });
      expect(r).toMatchObject({
        status: 403,
        body: { type: 'error', message: 'Deine Operator-Rolle erlaubt das nicht' },
      });
    }
    for (const p of gatedPaths) {
      const access = opsConsoleCalls[p].access;
      for (const role of ['support', 'reviewer', 'admin'] as const) {
        const r = await ops(p, fieldsOf(p), { token: tokens[role] });
        const allowed = access === 'session' || access === role || role === 'admin';
        if (allowed) {
          // Allowed: whatever the call answers, it is not the refusal (the made-up id 1 may not exist).
          expect({ p, role, message: r.body.message }).not.toMatchObject({
            message: 'Your operator role does not allow this',
          });
          expect(r.status).not.toBe(403);
        } else {
          expect({ p, role, status: r.status, body: r.body }).toEqual({
            p,
            role,
            status: 403,
            body: { type: 'error', code: 0, message: 'Your operator role does not allow this', reason: 'opsForbidden' },
          });
        }
      }
    }
    // Roles count from the next request on (a new login: the loop above ended with a logout).
    t.clock.advance(30_000);
    tokens.support = await login(support);
    expect((await ops('ops/deposits', {}, { token: tokens.support })).status).toBe(403);
    expect((await setOperatorRoles(s, support.name, ['support', 'reviewer'])).ok).toBe(true);
    expect((await ops('ops/deposits', {}, { token: tokens.support })).body).toMatchObject({ type: 'ok' });
    expect((await ops('ops/me', {}, { token: tokens.support })).body).toMatchObject({
      type: 'ok',
      data: { name: support.name, roles: ['support', 'reviewer'] },
    });
  });

  it('refuses and audits a wrong password, a wrong code and a code used already; never logs a secret', async () => {
    const op = await operator(['reviewer']);
    const ip = nextIp();
    const before = (await audit()).length;
    const now = () => t.clock.now();
    const wrongCode = String((Number(totpCode(op.secret, now())) + 1) % 1_000_000).padStart(6, '0');
    const attempts = [
      { name: op.name, password: 'not the password', code: totpCode(op.secret, now()) },
      { name: op.name, password: PASSWORD, code: wrongCode },
    ];
    for (const fields of attempts) {
      const r = await ops('ops/login', fields, { ip });
      expect(r.body).toEqual({
        type: 'error',
        code: 0,
        message: 'Name, password or code is wrong, or this code has been used already: wait for the next code',
        reason: 'opsLoginFailed',
      });
    }
    // The right code logs in once; the same code again (a replay, still inside its window) is refused.
    t.clock.advance(2_000);
    const code = totpCode(op.secret, now());
    const first = await ops('ops/login', { name: op.name, password: PASSWORD, code }, { ip });
    expect(first.body).toMatchObject({ type: 'ok', data: { operator: { name: op.name, roles: ['reviewer'] } } });
    t.clock.advance(4_000);
    const replay = await ops('ops/login', { name: op.name, password: PASSWORD, code }, { ip: nextIp(), lang: 'de' });
    expect(replay.body).toMatchObject({ type: 'error', message: expect.stringContaining('schon verwendet') });
    // An unknown name is refused alike.
    const unknown = await ops('ops/login', { name: 'nobody-here', password: PASSWORD, code }, { ip: nextIp() });
    expect(unknown.body).toMatchObject({ type: 'error', message: expect.stringContaining('Name, password or code') });

    const entries = (await audit()).slice(before);
    expect(entries.map((e) => [e.action, e.operator, JSON.parse(e.detail).reason ?? null])).toEqual([
      ['ops.login_failed', op.name, 'password'],
      ['ops.login_failed', op.name, 'totp'],
      ['ops.login', op.name, null],
      ['ops.login_failed', op.name, 'totp_reused'],
      ['ops.login_failed', '-', 'unknown_name'],
    ]);
    const logged = JSON.stringify(entries);
    for (const secret of [PASSWORD, 'not the password', code, wrongCode, op.secret, 'nobody-here']) {
      expect(logged).not.toContain(secret);
    }
    expect(JSON.parse(entries[0]!.detail)).toEqual({ reason: 'password', ip });
  });

  it('throttles repeated failures of one name from one address', async () => {
    const op = await operator(['reviewer']);
    const ip = nextIp();
    const bad = { name: op.name, password: 'wrong password!', code: '000000' };
    for (let i = 0; i < 3; i++) expect((await ops('ops/login', bad, { ip })).body.type).toBe('error');
    const held = await ops(
      'ops/login',
      { name: op.name, password: PASSWORD, code: totpCode(op.secret, t.clock.now()) },
      { ip },
    );
    expect(held.body).toMatchObject({ type: 'error', message: 'Too many requests – please try again shortly' });
    t.clock.advance(1_000);
    await login(op, ip);
  });

  /** A user with a pending crypto deposit of 100 USDT (proof uploaded); returns the deposit id and the proof. */
  async function pendingDeposit(token: string) {
    const proofBytes = fakeJpeg(3000);
    const proof = await uploadedId(t, token, proofBytes);
    const r = await t.call(
      'wallet/charge_req',
      {
        coin: 'USDT',
        chain: 'ERC20',
        amount: '100',
        hash: ethHash(),
        proof: String(proof),
        request_id: `dep-${++serial}`,
      },
      { token },
    );
    expect(r.body.type).toBe('ok');
    return { id: (r.body.data as { id: number }).id, proofBytes };
  }

  const depositRow = (id: number) =>
    withFunding(t.db)
      .selectFrom('deposits')
      .select(['state', 'reviewed_at', 'entry_id', 'reason'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const auditOf = async (subjectType: string, id: number) =>
    (await audit()).filter((e) => e.subject_type === subjectType && e.subject_id === String(id));
  const eventsOf = (userId: number, kind: string) =>
    t.db
      .selectFrom('user_events')
      .select(['kind', 'payload'])
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .orderBy('id')
      .execute();

  it('a deposit approved through the console changes what the CLI changes, audited with the operator', async () => {
    const user = await t.registerByEmail(uniqueEmail('opsdep'));
    const byCli = await pendingDeposit(user.token);
    const byConsole = await pendingDeposit(user.token);
    const reviewer = await operator(['reviewer']);
    const token = await login(reviewer);

    const list = await ops('ops/deposits', {}, { token });
    const listed = (list.body.data as { items: Array<Record<string, unknown>> }).items.find(
      (d) => d.id === byConsole.id,
    );
    expect(listed).toMatchObject({
      user_id: user.user.id,
      method: 'crypto',
      coin: 'USDT',
      chain: 'ERC20',
      amount: '100.000000',
      state: 'pending',
    });
    const proof = await ops(OPS_DEPOSIT_PROOF_PATH, { id: String(byConsole.id) }, { token });
    expect(proof.status).toBe(200);
    expect(proof.type).toBe('image/jpeg');
    expect(Buffer.compare(proof.raw, byConsole.proofBytes)).toBe(0);

    expect((await approveDeposit(t.handle, byCli.id, { operator: 'cli-user' })).ok).toBe(true);
    const approved = await ops('ops/deposits/approve', { id: String(byConsole.id) }, { token });
    expect(approved.body).toEqual({ type: 'ok', code: 1, message: 'OK', data: { id: byConsole.id, state: 'passed' } });

    const [cli, web] = [await depositRow(byCli.id), await depositRow(byConsole.id)];
    expect(web).toMatchObject({ state: 'passed', reason: null, reviewed_at: t.clock.now() });
    expect(web.entry_id).not.toBeNull();
    expect({ ...cli, entry_id: 0, reviewed_at: 0 }).toEqual({ ...web, entry_id: 0, reviewed_at: 0 });
    const balance = await withLedger(t.db)
      .selectFrom('ledger_accounts')
      .select('balance')
      .where('user_id', '=', user.user.id)
      .where('type', '=', 'coin')
      .where('currency', '=', 'USDT')
      .executeTakeFirstOrThrow();
    expect(Number(balance.balance)).toBe(200_000_000);
    const [cliAudit] = await auditOf('deposit', byCli.id);
    // Seeing the user's proof is recorded too (ops-audit.test.ts), before the decision.
    const [proofView, webAudit] = await auditOf('deposit', byConsole.id);
    expect(proofView).toMatchObject({ action: 'deposit.proof_view', operator: reviewer.name });
    expect(webAudit).toMatchObject({ action: 'deposit.approve', operator: reviewer.name });
    expect(cliAudit).toMatchObject({ action: 'deposit.approve', operator: 'cli-user', detail: webAudit?.detail });
    const events = await eventsOf(user.user.id, 'deposit');
    expect(events.map((e) => JSON.parse(e.payload))).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: byCli.id, state: 'passed' }),
        expect.objectContaining({ id: byConsole.id, state: 'passed' }),
      ]),
    );

    // Decided: not again, not twice the money, no proof any more; an unknown id is named as such.
    const again = await ops('ops/deposits/approve', { id: String(byConsole.id) }, { token });
    expect(again.body).toMatchObject({
      type: 'error',
      field: 'id',
      message: expect.stringContaining('decided already'),
    });
    const missing = await ops('ops/deposits/reject', { id: '987654', reason: 'no such' }, { token, lang: 'de' });
    expect(missing.body).toMatchObject({ type: 'error', message: 'Diesen Eintrag gibt es nicht' });
    expect((await ops(OPS_DEPOSIT_PROOF_PATH, { id: String(byConsole.id) }, { token })).status).toBe(404);
    expect((await auditOf('deposit', byConsole.id)).map((e) => e.action)).toEqual([
      'deposit.proof_view',
      'deposit.approve',
    ]);
  });

  it('a rejection needs a reason (de and en) and changes nothing without one', async () => {
    const user = await t.registerByEmail(uniqueEmail('opsrej'));
    const deposit = await pendingDeposit(user.token);
    const token = await login(await operator(['reviewer']));
    for (const [lang, message] of [
      ['en', 'Give a reason for the rejection: the user sees it'],
      ['de', 'Bitte gib einen Grund für die Ablehnung an: Der Nutzer sieht ihn'],
    ] as const) {
      const r = await ops('ops/deposits/reject', { id: String(deposit.id), reason: '   ' }, { token, lang });
      expect(r.body).toEqual({ type: 'error', code: 0, message, reason: 'opsReasonRequired', field: 'reason' });
    }
    expect(
      (await ops('ops/deposits/reject', { id: String(deposit.id), reason: 'x'.repeat(501) }, { token })).body,
    ).toMatchObject({
      type: 'error',
      field: 'reason',
    });
    expect(await depositRow(deposit.id)).toMatchObject({ state: 'pending', reason: null });
    const rejected = await ops(
      'ops/deposits/reject',
      { id: String(deposit.id), reason: 'The  proof is\nunreadable' },
      { token },
    );
    expect(rejected.body).toMatchObject({ type: 'ok', data: { state: 'rejected' } });
    expect(await depositRow(deposit.id)).toMatchObject({ state: 'rejected', reason: 'The proof is unreadable' });
  });

  const verificationId = async (userId: number) =>
    (
      await withIdentity(t.db)
        .selectFrom('identity_verifications')
        .select('id')
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
    ).id;
  const verificationRow = (id: number) =>
    withIdentity(t.db)
      .selectFrom('identity_verifications')
      .select(['state', 'reason', 'reviewed_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('a verification rejected through the console changes what the CLI changes; the user sees the reason', async () => {
    const [a, b] = [await t.registerByEmail(uniqueEmail('opskyc')), await t.registerByEmail(uniqueEmail('opskyc'))];
    for (const who of [a, b])
      expect((await t.call('user/real_name', BASIC, { token: who.token })).body.type).toBe('ok');
    const [idA, idB] = [await verificationId(a.user.id), await verificationId(b.user.id)];
    const reviewer = await operator(['reviewer']);
    const token = await login(reviewer);

    const list = await ops('ops/kyc', {}, { token });
    expect((list.body.data as { items: unknown[] }).items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: idB,
          user_id: b.user.id,
          level: 'basic',
          name: BASIC.name,
          id_number: BASIC.id_number,
          photos: [],
        }),
      ]),
    );
    const reason = 'The ID number does not match the document';
    expect((await rejectVerification(t.db, idA, reason, { operator: 'cli-user' })).ok).toBe(true);
    const rejected = await ops('ops/kyc/reject', { id: String(idB), reason }, { token });
    expect(rejected.body).toMatchObject({ type: 'ok', data: { id: idB, state: 'rejected' } });

    expect(await verificationRow(idB)).toEqual({ state: 'rejected', reason, reviewed_at: t.clock.now() });
    expect({ ...(await verificationRow(idA)), reviewed_at: 0 }).toEqual({
      ...(await verificationRow(idB)),
      reviewed_at: 0,
    });
    const [cliAudit] = await auditOf('identity_verification', idA);
    const [webAudit] = await auditOf('identity_verification', idB);
    expect(webAudit).toMatchObject({ action: 'kyc.reject', operator: reviewer.name });
    expect(JSON.parse(webAudit!.detail)).toEqual({ user_id: b.user.id, level: 'basic', reason });
    expect(cliAudit).toMatchObject({ action: 'kyc.reject', operator: 'cli-user' });
    expect((await eventsOf(b.user.id, 'verification')).map((e) => JSON.parse(e.payload)).at(-1)).toEqual({
      level: 'basic',
      state: 'rejected',
      reason,
    });
    const info = await t.call('user/real_name_info', {}, { token: b.token });
    expect(info.body).toMatchObject({ type: 'ok', data: { basic: { state: 'rejected', reason } } });
    const again = await ops('ops/kyc/approve', { id: String(idB) }, { token });
    expect(again.body).toMatchObject({ type: 'error', message: expect.stringContaining('decided already') });
  });

  it('serves the photos of an advanced verification to reviewers while it is under review', async () => {
    const user = await t.registerByEmail(uniqueEmail('opsphoto'));
    expect((await t.call('user/real_name', BASIC, { token: user.token })).body.type).toBe('ok');
    expect((await approveVerification(t.db, await verificationId(user.user.id), { operator: 'cli-user' })).ok).toBe(
      true,
    );
    const bytes = { front: fakeJpeg(2100), back: fakeJpeg(2200), hold: fakeJpeg(2300) };
    const ids = {
      front: await uploadedId(t, user.token, bytes.front),
      back: await uploadedId(t, user.token, bytes.back),
      hold: await uploadedId(t, user.token, bytes.hold),
    };
    const submitted = await t.call(
      'user/real_name2',
      { front: String(ids.front), back: String(ids.back), hold: String(ids.hold), consent: '1' },
      { token: user.token },
    );
    expect(submitted.body.type).toBe('ok');
    const id = await verificationId(user.user.id);
    const token = await login(await operator(['reviewer']));
    const listed = (await ops('ops/kyc', {}, { token })).body.data as {
      items: Array<{ id: number; photos: string[] }>;
    };
    // The photos come with the identity verified at the basic level, to compare them with.
    expect(listed.items.find((v) => v.id === id)).toMatchObject({
      level: 'advanced',
      photos: ['front', 'back', 'hold'],
      name: BASIC.name,
      id_number: BASIC.id_number,
      country: BASIC.country,
    });
    for (const side of ['front', 'back', 'hold'] as const) {
      const r = await ops(OPS_KYC_PHOTO_PATH, { id: String(id), side }, { token });
      expect(r.status).toBe(200);
      expect(r.type).toBe('image/jpeg');
      expect(Buffer.compare(r.raw, bytes[side])).toBe(0);
    }
    expect((await ops(OPS_KYC_PHOTO_PATH, { id: String(id), side: 'selfie' }, { token })).status).toBe(404);
    expect((await ops('ops/kyc/approve', { id: String(id) }, { token })).body).toMatchObject({
      type: 'ok',
      data: { id, state: 'verified' },
    });
    expect((await ops(OPS_KYC_PHOTO_PATH, { id: String(id), side: 'front' }, { token })).status).toBe(404);
  });

  it('sessions end when idle, at their absolute end and at logout', async () => {
    const op = await operator(['reviewer']);
    const idle = await login(op);
    t.clock.advance(29 * MINUTE);
    expect((await ops('ops/me', {}, { token: idle })).body.type).toBe('ok');
    t.clock.advance(29 * MINUTE);
    expect((await ops('ops/me', {}, { token: idle })).body.type).toBe('ok');
    t.clock.advance(30 * MINUTE + 1);
    expect((await ops('ops/me', {}, { token: idle })).body).toEqual({
      type: 999,
      code: 0,
      message: 'Your console session has ended: please sign in again',
    });

    const busy = await login(op);
    for (let spent = 0; spent + 25 * MINUTE < 12 * 60 * MINUTE; spent += 25 * MINUTE) {
      t.clock.advance(25 * MINUTE);
      expect((await ops('ops/deposits', {}, { token: busy })).body.type).toBe('ok');
    }
    t.clock.advance(25 * MINUTE);
    expect((await ops('ops/deposits', {}, { token: busy })).body).toMatchObject({ type: 999 });

    t.clock.advance(30_000);
    const token = await login(op);
    expect((await ops('ops/logout', {}, { token })).body).toMatchObject({ type: 'ok' });
    expect((await ops('ops/me', {}, { token })).body).toMatchObject({ type: 999 });
    expect((await audit()).at(-1)).toMatchObject({ action: 'ops.logout', operator: op.name });
  });

  it('a disabled operator is refused at once, and cannot log in', async () => {
    const op = await operator(['admin']);
    const token = await login(op);
    expect((await ops('ops/audit', { limit: '2' }, { token })).body.type).toBe('ok');
    expect((await disableOperator(s, op.name, { by: 'cli-user' })).ok).toBe(true);
    expect((await ops('ops/audit', {}, { token })).body).toMatchObject({ type: 999 });
    t.clock.advance(30_000);
    const r = await ops(
      'ops/login',
      { name: op.name, password: PASSWORD, code: totpCode(op.secret, t.clock.now()) },
      { ip: nextIp() },
    );
    expect(r.body).toMatchObject({ type: 'error', message: expect.stringContaining('Name, password or code') });
    expect((await audit()).slice(-2).map((e) => [e.action, e.operator, JSON.parse(e.detail).reason ?? null])).toEqual([
      ['operator.disable', 'cli-user', null],
      ['ops.login_failed', op.name, 'disabled'],
    ]);
  });

  it('reads the audit log newest first, page by page (admins only)', async () => {
    const token = await login(await operator(['admin']));
    const all = await audit();
    const first = await ops('ops/audit', { limit: '3' }, { token });
    const page1 = first.body.data as { items: Array<{ id: number; detail: unknown }>; next_before_id: number };
    expect(page1.items.map((e) => e.id)).toEqual(
      all
        .slice(-3)
        .map((e) => e.id)
        .reverse(),
    );
    expect(page1.items[0]?.detail).toEqual(expect.any(Object));
    const second = await ops('ops/audit', { limit: '3', before_id: String(page1.next_before_id) }, { token });
    const page2 = second.body.data as { items: Array<{ id: number }> };
    expect(page2.items.map((e) => e.id)).toEqual(
      all
        .slice(-6, -3)
        .map((e) => e.id)
        .reverse(),
    );
  });

  it('serves the built client at /ops and below; /api/ops paths never fall back to it', async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-it-ops-dist-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>console test</title>');
    const withClient = await startTestApp(database.handle, { staticDir: dist, dataKey });
    try {
      for (const url of ['/ops', '/ops/', '/ops/kyc', '/ops/audit?before=3']) {
        const r = await withClient.app.inject({ method: 'GET', url });
        expect({ url, status: r.statusCode, type: r.headers['content-type'] }).toMatchObject({
          url,
          status: 200,
          type: expect.stringContaining('text/html'),
        });
        expect(r.body).toContain('console test');
      }
      const api = await withClient.app.inject({ method: 'GET', url: '/api/ops/no-such-call', headers: { lang: 'en' } });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toMatchObject({ type: 'error', code: 0 });
    } finally {
      await withClient.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });

  it('the CLI adds operators with --roles, prints the secret once, and audits every change', async () => {
    const line = parseCommandLine(['operators', 'add', 'carol', '--roles', 'support,reviewer'], (c) =>
      c === 'operators' ? ['roles'] : [],
    );
    expect(line).toEqual({
      kind: 'run',
      command: 'operators',
      words: ['add', 'carol'],
      options: { roles: 'support,reviewer' },
    });
    expect(
      parseCommandLine(['kyc', 'list', '--roles', 'x'], (c) => (c === 'operators' ? ['roles'] : [])),
    ).toMatchObject({
      kind: 'mistake',
    });

    const out: string[] = [];
    const name = `carol-${kind}`;
    expect(await runOperatorsCommand(['add', name], { roles: 'support,reviewer' }, s, (l) => out.push(l))).toBe(0);
    const password = /^password: (\S+)/m.exec(out.join('\n'))?.[1];
    const secret = /TOTP secret \(base32\): ([A-Z2-7]+)/.exec(out.join('\n'))?.[1];
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(out.join('\n')).toContain(`otpauth://totp/`);
    const r = await ops(
      'ops/login',
      { name, password: password ?? '', code: totpCode(secret ?? '', t.clock.now()) },
      { ip: nextIp() },
    );
    expect(r.body).toMatchObject({ type: 'ok', data: { operator: { name, roles: ['support', 'reviewer'] } } });

    out.length = 0;
    expect(await runOperatorsCommand(['add', name], { roles: 'support' }, s, (l) => out.push(l))).toBe(1);
    expect(await runOperatorsCommand(['add', 'dave'], { roles: 'root' }, s, (l) => out.push(l))).toBe(1);
    expect(await runOperatorsCommand(['add', 'dave'], {}, s, (l) => out.push(l))).toBe(2);
    expect(await runOperatorsCommand(['roles', name, 'admin'], {}, s, (l) => out.push(l))).toBe(0);
    expect(await runOperatorsCommand(['reset-totp', name], {}, s, (l) => out.push(l))).toBe(0);
    // A new secret ends the sessions made with the old one.
    expect((await ops('ops/me', {}, { token: (r.body.data as { token: string }).token })).body).toMatchObject({
      type: 999,
    });
    expect(await runOperatorsCommand(['disable', name], {}, s, (l) => out.push(l))).toBe(0);
    out.length = 0;
    expect(await runOperatorsCommand(['list'], {}, s, (l) => out.push(l))).toBe(0);
    expect(out.find((l) => l.startsWith(`${name} `))).toMatch(/admin\s+disabled/);
    const actions = (await audit()).filter((e) => e.subject_type === 'operator' && JSON.parse(e.detail).name === name);
    expect(actions.map((e) => e.action)).toEqual([
      'operator.add',
      'operator.roles',
      'operator.reset_totp',
      'operator.disable',
    ]);
    expect(JSON.stringify(actions)).not.toContain(secret);
    expect(JSON.stringify(actions)).not.toContain(password);
  });
  // Last: it moves the database to another data key.
  it('data-key rotate moves the TOTP secrets with the bank cards; the operators still sign in', async () => {
    const op = await operator(['reviewer']);
    const keyFile = path.join(dir, 'next.key');
    const out: string[] = [];
    const source = { dataKey: Buffer.from(dataKey).toString('hex'), dataDir: dir };
    const code = await runDataKeyCommand(t.handle, ['rotate', keyFile], (l) => out.push(l), {
      source,
      sealed: [operatorSealedData],
    });
    expect({ code, out }).toMatchObject({ code: 0 });
    expect(out.join('\n')).toMatch(/re-encrypted \d+ operator TOTP secret\(s\) under the new key/);
    const next = new CardVault(readKeyFile(keyFile));
    const row = await withOperators(t.db)
      .selectFrom('operators')
      .selectAll()
      .where('name', '=', op.name)
      .executeTakeFirstOrThrow();
    expect(openTotpSecret(next, row.id, row.totp_secret_enc)).toBe(op.secret);
    const checked: string[] = [];
    const nextSource = { dataKey: Buffer.from(readKeyFile(keyFile)).toString('hex'), dataDir: dir };
    expect(
      await runDataKeyCommand(t.handle, ['check'], (l) => checked.push(l), {
        source: nextSource,
        sealed: [operatorSealedData],
      }),
    ).toBe(0);
    expect(checked.join('\n')).toMatch(/(\d+) of \1 operator TOTP secret\(s\) open with the current key/);
  });
});
