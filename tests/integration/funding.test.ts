import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okEnvelope } from '../../protocol';
import {
  chargeResponse,
  depositCurrencyResponse,
  depositLogResponse,
  withdrawalLogResponse,
  withdrawInfoResponse,
  withdrawResponse,
} from '../../protocol/funding';
import { withBankCards } from '../../server/domains/bank-cards';
import { type FundingTables, withFunding } from '../../server/domains/funding';
import {
  runDepositsCommand,
  runFeesCommand,
  runWithdrawalsCommand,
  setBankDetails,
  setDepositAddress,
} from '../../server/domains/funding/ops';
import {
  approveDeposit,
  approveWithdrawal,
  rejectDeposit,
  rejectWithdrawal,
} from '../../server/domains/funding/review';
import { withIdentity } from '../../server/domains/identity';
import { approveVerification } from '../../server/domains/identity/ops';
import { withWalletAddresses } from '../../server/domains/wallet-addresses';
import { type LedgerTables, withLedger } from '../../server/ledger';
import { DATABASES, openTestDatabase, startTestApp, type TestApp, type TestDatabase, uniqueEmail } from './harness';
import { fakeJpeg, upload, uploadedId } from './uploads-helpers';

const PLATFORM_ERC20 = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const PLATFORM_OMNI = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
const USER_ERC20 = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const FUND = '246810';
const BASIC = {
  country: 'DE',
  name: 'Erika Mustermann',
  id_number: 'L01X00T47',
  address: 'Heidestraße 17, 51147 Köln',
  consent: '1',
};

let serial = 0;
/** A fresh, well-formed ERC20 transaction hash. */
const ethHash = () => `0x${(++serial).toString(16).padStart(64, 'a')}`;
const rid = (tag = 'r') => `${tag}-${++serial}-${Date.now()}`;

describe.each(DATABASES)('deposits and withdrawals on %s', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-it-funding-'));
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    t = await startTestApp(database.handle, { uploadsDir: dir });
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const ops = { operator: 'tester' };
  const count = async (table: 'deposits' | 'withdrawals' | 'ledger_entries' | 'ledger_holds') =>
    Number(
      (
        await t.db
          .withTables<FundingTables & LedgerTables>()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const coinAccount = async (userId: number, currency = 'USDT') =>
    withLedger(t.db)
      .selectFrom('ledger_accounts')
      .select(['balance', 'held'])
      .where('user_id', '=', userId)
      .where('type', '=', 'coin')
      .where('book', '=', 'real')
      .where('currency', '=', currency)
      .executeTakeFirst()
      .then((r) => ({ balance: Number(r?.balance ?? 0), held: Number(r?.held ?? 0) }));
  const platform = async (type: string, currency = 'USDT') =>
    Number(
      (
        await withLedger(t.db)
          .selectFrom('ledger_accounts')
          .select('balance')
          .where('user_id', 'is', null)
          .where('type', '=', type as 'fees')
          .where('currency', '=', currency)
          .executeTakeFirst()
      )?.balance ?? 0,
    );

  async function user() {
    return t.registerByEmail(uniqueEmail('fund'));
  }

  async function setFund(token: string) {
    const set = await t.call(
      'user/e_pwd',
      { mode: 'password', login_password: 'secret1', password: FUND, repassword: FUND },
      { token },
    );
    expect(set.body.type).toBe('ok');
  }

  async function verify(token: string, userId: number) {
    expect((await t.call('user/real_name', BASIC, { token })).body.type).toBe('ok');
    const row = await withIdentity(t.db)
      .selectFrom('identity_verifications')
      .select('id')
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect((await approveVerification(t.db, row.id, ops)).ok).toBe(true);
  }

  /** A saved address (straight into the table: saving one over HTTP is the addresses suite's subject). */
  async function saveAddress(userId: number, coin = 'USDT', chain = 'ERC20', address = USER_ERC20) {
    const row = await withWalletAddresses(t.db)
      .insertInto('withdraw_addresses')
      .values({
        user_id: userId,
        coin: coin as 'USDT',
        chain: chain as 'ERC20',
        address,
        label: null,
        created_at: Date.now(),
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function charge(token: string, fields: Record<string, string> = {}, lang = 'en') {
    const proof = fields.proof ?? String(await uploadedId(t, token));
    return t.call(
      'wallet/charge_req',
      { coin: 'USDT', chain: 'ERC20', amount: '100', hash: ethHash(), proof, request_id: rid('dep'), ...fields },
      { token, lang },
    );
  }

  /** Deposits `amount` USDT and has it approved. */
  async function funded(token: string, amount: string) {
    const r = await charge(token, { amount });
    const id = okEnvelope(chargeResponse).parse(r.body).data.id;
    expect((await approveDeposit(t.handle, id, ops)).ok).toBe(true);
  }

  /** A user who may withdraw: fund password, verification, an address, and `balance` USDT. */
  async function withdrawer(balance = '1000') {
    const who = await user();
    await setFund(who.token);
    await verify(who.token, who.user.id);
    const addressId = await saveAddress(who.user.id);
    if (balance !== '0') await funded(who.token, balance);
    return { ...who, addressId };
  }

  const out = (token: string, fields: Record<string, string>, lang = 'en') =>
    t.call(
      'wallet/out',
      { coin: 'USDT', chain: 'ERC20', amount: '20', fund_password: FUND, request_id: rid('wd'), ...fields },
      { token, lang },
    );

  it('says the payment address is not configured until an operator sets one', async () => {
    const { token } = await user();
    const r = await t.call('wallet/deposit_address', { coin: 'USDT', chain: 'ERC20' }, { token });
    expect(r.body).toMatchObject({ type: 'error', message: 'The payment address is not configured; contact support' });
    const de = await t.call('wallet/deposit_address', { coin: 'USDT', chain: 'ERC20' }, { token, lang: 'de' });
    expect(de.body.message).toBe('Die Zahlungsadresse ist nicht eingerichtet – bitte wende dich an den Support');
    const before = await count('deposits');
    expect((await charge(token)).body.message).toBe('The payment address is not configured; contact support');
    expect(await count('deposits')).toBe(before);

    expect(await setDepositAddress(t.db, 'usdt', 'erc20', PLATFORM_ERC20.toLowerCase(), ops)).toEqual({
      ok: true,
      address: PLATFORM_ERC20,
    });
    expect((await setDepositAddress(t.db, 'USDT', 'OMNI', PLATFORM_OMNI, ops)).ok).toBe(true);
    expect((await setDepositAddress(t.db, 'BTC', 'OMNI', PLATFORM_OMNI, ops)).ok).toBe(true);
    expect((await setDepositAddress(t.db, 'BTC', 'ERC20', PLATFORM_ERC20, ops)).ok).toBe(false);
    expect((await setDepositAddress(t.db, 'USDT', 'OMNI', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb', ops)).ok).toBe(false);
    const ok = await t.call('wallet/deposit_address', { coin: 'usdt', chain: 'erc20' }, { token });
    expect(ok.body).toMatchObject({
      type: 'ok',
      data: { coin: 'USDT', chain: 'ERC20', address: PLATFORM_ERC20, min_deposit: '10.000000' },
    });
    const audit = await t.db
      .selectFrom('ops_audit')
      .select('action')
      .where('action', '=', 'deposit_address.set')
      .execute();
    expect(audit.length).toBe(3);
  });

  it('lists the coins with their chains, minimums and fees', async () => {
    const { token } = await user();
    const dep = okEnvelope(depositCurrencyResponse).parse(
      (await t.call('wallet/deposit_currency', {}, { token })).body,
    ).data;
    expect(dep.coins.map((c) => [c.coin, c.id, c.chains])).toEqual([
      ['USDT', 3, ['ERC20', 'OMNI']],
      ['USDC', 4, ['ERC20']],
      ['BTC', 1, ['OMNI']],
      ['ETH', 2, ['ERC20']],
    ]);
    expect(dep.bank).toEqual({ coin: 'USDT', min_deposit: '10.000000', details: null });
    const wd = await t.call('wallet/withdrawal_currency', {}, { token });
    expect(wd.body).toMatchObject({
      type: 'ok',
      data: [{ coin: 'USDT', min_withdraw: '10.000000', withdraw_fee: '1.000000', scale: 6 }, {}, {}, {}],
    });
  });

  it('deposit: submit with proof, under review, approve, balance and records follow; the hash is used once', async () => {
    const { token, user: me } = await user();
    const proof = await uploadedId(t, token);
    const hash = ethHash().toUpperCase().replace('0X', '0x');
    const r = await charge(token, { amount: '150', hash, proof: String(proof) });
    const dep = okEnvelope(chargeResponse).parse(r.body).data;
    expect(dep).toMatchObject({
      method: 'crypto',
      coin: 'USDT',
      chain: 'ERC20',
      address: PLATFORM_ERC20,
      hash: hash.toLowerCase(),
      amount: '150.000000',
      state: 'pending',
      replayed: false,
    });
    // The proof now belongs to the deposit: it cannot be removed any more.
    expect((await t.call('upload/delete', { id: String(proof) }, { token })).body.type).toBe('error');
    // No money before the review.
    expect(await coinAccount(me.id)).toEqual({ balance: 0, held: 0 });

    // The same hash again (another case, another user): refused.
    const other = await user();
    const again = await charge(other.token, { hash: hash.toLowerCase() });
    expect(again.body).toMatchObject({ type: 'error', message: 'This hash has already been used for a deposit' });
    const check = await t.call('wallet/check_address', { coin: 'USDT', chain: 'ERC20', hash }, { token });
    expect(check.body.data).toEqual({ valid: true, used: true });

    const lines: string[] = [];
    expect(await runDepositsCommand(['list'], t.db, (l) => lines.push(l))).toBe(0);
    expect(lines.some((l) => l.startsWith(`#${dep.id} `) && l.includes('150.000000 USDT'))).toBe(true);

    const approved = await approveDeposit(t.handle, dep.id, ops);
    expect(approved).toMatchObject({ ok: true, state: 'passed', userId: me.id });
    expect(await coinAccount(me.id)).toEqual({ balance: 150_000_000, held: 0 });
    // Twice is refused and changes nothing.
    expect(await approveDeposit(t.handle, dep.id, ops)).toEqual({
      ok: false,
      problem: `deposit ${dep.id} is passed, not pending`,
    });
    expect(await coinAccount(me.id)).toEqual({ balance: 150_000_000, held: 0 });

    const log = okEnvelope(depositLogResponse).parse((await t.call('charge_mention/log2', {}, { token })).body).data;
    expect(log.items).toHaveLength(1);
    expect(log.items[0]).toMatchObject({ id: dep.id, state: 'passed', reason: null });
    const events = await t.db.selectFrom('user_events').selectAll().where('user_id', '=', me.id).execute();
    expect(events.filter((e) => e.kind === 'deposit').map((e) => JSON.parse(e.payload))).toEqual([
      { id: dep.id, state: 'pending', reason: null },
      { id: dep.id, state: 'passed', reason: null },
    ]);
    const audit = await t.db
      .selectFrom('ops_audit')
      .selectAll()
      .where('subject_type', '=', 'deposit')
      .where('subject_id', '=', String(dep.id))
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'deposit.approve', operator: 'tester' });
  });

  it('deposit: a rejection keeps the balance, shows the reason, and frees the hash', async () => {
    const { token, user: me } = await user();
    const hash = ethHash();
    const dep = okEnvelope(chargeResponse).parse((await charge(token, { hash })).body).data;
    expect(await rejectDeposit(t.handle, dep.id, '   ', ops)).toEqual({
      ok: false,
      problem: 'a rejection needs a reason',
    });
    expect((await rejectDeposit(t.handle, dep.id, 'Proof   unreadable', ops)).ok).toBe(true);
    expect(await approveDeposit(t.handle, dep.id, ops)).toMatchObject({ ok: false });
    expect(await coinAccount(me.id)).toEqual({ balance: 0, held: 0 });
    const log = okEnvelope(depositLogResponse).parse(
      (await t.call('charge_mention/log2', { state: 'rejected' }, { token })).body,
    ).data;
    expect(log.items[0]).toMatchObject({ id: dep.id, state: 'rejected', reason: 'Proof unreadable' });
    // After a rejection the same transaction may be reported again.
    expect((await charge(token, { hash })).body.type).toBe('ok');
  });

  it('deposit: bad input gets a clear message and changes nothing', async () => {
    const { token } = await user();
    const stranger = await user();
    const theirs = await uploadedId(t, stranger.token);
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ amount: '10.5' }, 'amount', 'The amount must be a whole number'],
      [{ amount: '-20' }, 'amount', 'The amount must be a whole number'],
      [{ amount: 'abc' }, 'amount', 'The amount must be a whole number'],
      [{ amount: '' }, 'amount', 'Please enter an amount.'],
      [{ amount: '9' }, 'amount', 'The amount is below the minimum deposit for this coin'],
      [{ amount: '99999999999999999999' }, 'amount', 'The amount is too large.'],
      [{ hash: '0x1234' }, 'hash', 'Incorrect hash'],
      [{ hash: 'a'.repeat(64) }, 'hash', 'Incorrect hash'],
      [{ chain: 'OMNI', hash: ethHash() }, 'hash', 'Incorrect hash'],
      [{ hash: '' }, 'hash', 'Please enter the transaction hash'],
      [{ coin: 'USDC', chain: 'OMNI' }, 'chain', 'This network is not available for the chosen coin'],
      [{ coin: 'DOGE' }, 'coin', 'Please choose a supported coin'],
      [{ proof: '' }, 'proof', 'Please upload a proof image'],
      [{ proof: String(theirs) }, 'proof', 'This image was not found – please upload it again'],
      [{ proof: '99999999' }, 'proof', 'This image was not found – please upload it again'],
      [{ request_id: '' }, 'request_id', 'The request could not be identified. Please try again.'],
      [{ method: 'cash' }, 'method', 'Please choose a deposit method'],
    ];
    const before = await count('deposits');
    for (const [fields, field, message] of cases) {
      const r = await charge(token, fields);
      expect([r.body.type, r.body.field, r.body.message], JSON.stringify(fields)).toEqual(['error', field, message]);
    }
    // Fake and oversized images never become uploads, so a deposit can never point at them.
    const fake = await upload(t, token, Buffer.from('GIF89a not really'), { filename: 'proof.jpg' });
    expect(fake.body).toMatchObject({ type: 'error', message: 'Only JPEG, PNG or WebP images can be uploaded' });
    const big = await upload(t, token, fakeJpeg(5 * 1024 * 1024 + 10));
    expect(big.body.type).toBe('error');
    expect(big.body.message).toMatch(/Out of allowable file size/);
    const german = await charge(token, { amount: '10.5' }, 'de');
    expect(german.body.message).toBe('Der Betrag muss eine ganze Zahl sein');
    expect(await count('deposits')).toBe(before);
  });

  it('deposit: the same request id twice applies once; with other details it is refused', async () => {
    const { token } = await user();
    const fields = {
      coin: 'USDT',
      chain: 'OMNI',
      amount: '50',
      hash: 'b'.repeat(64),
      proof: String(await uploadedId(t, token)),
      request_id: rid('same'),
    };
    const first = await charge(token, fields);
    const second = await charge(token, fields);
    expect(first.body).toMatchObject({ type: 'ok', data: { replayed: false } });
    expect(second.body).toMatchObject({
      type: 'ok',
      data: { replayed: true, id: (first.body.data as { id: number }).id },
    });
    const other = await charge(token, { ...fields, amount: '60' });
    expect(other.body).toMatchObject({
      type: 'error',
      message: 'This request was already sent with different details.',
    });
    const log = okEnvelope(depositLogResponse).parse((await t.call('charge_mention/log2', {}, { token })).body).data;
    expect(log.items).toHaveLength(1);
  });

  it('bank deposit: with one of the own cards and a proof, under review, then credited in USDT', async () => {
    const { token, user: me } = await user();
    const card = await withBankCards(t.db)
      .insertInto('bank_cards')
      .values({
        user_id: me.id,
        name: 'Erika',
        bank_name: 'Bank',
        branch_name: 'Köln',
        branch_number: '1',
        // Only the id matters here; the sealed columns hold placeholders (bank-cards.test.ts covers them).
        card_number_enc: 'sealed',
        card_number_hash: `hash-${me.id}`,
        card_last4: '1111',
        bank_address: 'Street 1',
        swift_code: 'DEUTDEFF',
        cardholder_name: 'Erika',
        bank_account_enc: 'sealed',
        iban_enc: 'sealed',
        payee_address: 'Street 1',
        postal_code: '50667',
        created_at: Date.now(),
        updated_at: null,
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const bank = (fields: Record<string, string>) =>
      charge(token, { method: 'bank', coin: '', chain: '', hash: '', bank_card_id: String(card.id), ...fields });
    expect((await bank({})).body.message).toBe('The payment address is not configured; contact support');
    expect((await setBankDetails(t.db, 'Tradewave Ltd, IBAN DE02 1203 0000 0000 2020 51', ops)).ok).toBe(true);
    expect((await bank({ bank_card_id: '' })).body.message).toBe('Please choose the bank card you paid from');
    const stranger = await user();
    const theirs = await bank({ proof: String(await uploadedId(t, stranger.token)) });
    expect(theirs.body.field).toBe('proof');
    const strangerCard = await t.call(
      'wallet/charge_req',
      {
        method: 'bank',
        bank_card_id: String(card.id),
        amount: '100',
        proof: String(await uploadedId(t, stranger.token)),
        request_id: rid(),
      },
      { token: stranger.token },
    );
    expect(strangerCard.body).toMatchObject({ type: 'error', message: 'This bank card was not found' });
    const r = await bank({ amount: '500' });
    const dep = okEnvelope(chargeResponse).parse(r.body).data;
    expect(dep).toMatchObject({ method: 'bank', coin: 'USDT', chain: null, hash: null, card_last4: '1111' });
    expect((await approveDeposit(t.handle, dep.id, ops)).ok).toBe(true);
    expect(await coinAccount(me.id)).toEqual({ balance: 500_000_000, held: 0 });
  });

  it('withdraw: blocked until address, fund password and verification exist, in that order', async () => {
    const { token, user: me } = await user();
    await funded(token, '100');
    const before = await count('withdrawals');
    expect((await out(token, {})).body.message).toBe('Set a withdraw address first');
    const addressId = String(await saveAddress(me.id));
    expect((await out(token, { address_id: addressId })).body.message).toBe(
      'Set the fund password first (for asset security)',
    );
    await setFund(token);
    expect((await out(token, { address_id: addressId })).body.message).toBe('Do real-name verification first');
    expect((await out(token, { address_id: addressId }, 'de')).body.message).toBe(
      'Schließe zuerst die Identitätsprüfung ab',
    );
    const info = okEnvelope(withdrawInfoResponse).parse(
      (await t.call('wallet/get_info', { coin: 'USDT' }, { token })).body,
    );
    expect(info.data).toMatchObject({ has_address: true, has_fund_password: true, verified: false });
    await verify(token, me.id);
    expect(await count('withdrawals')).toBe(before);
    expect((await out(token, { address_id: addressId })).body.type).toBe('ok');
  });

  it('withdraw: freezes amount plus fee, a rejection unfreezes, an approval pays out', async () => {
    const { token, user: me, addressId } = await withdrawer('100');
    const info = okEnvelope(withdrawInfoResponse).parse(
      (await t.call('wallet/get_info', { coin: 'USDT' }, { token })).body,
    );
    expect(info.data).toMatchObject({
      available: '100.000000',
      min_withdraw: '10.000000',
      withdraw_fee: '1.000000',
      requests_left: 3,
      has_address: true,
      has_fund_password: true,
      verified: true,
    });
    const first = okEnvelope(withdrawResponse).parse(
      (await out(token, { address_id: String(addressId), amount: '30', remark: 'rent' })).body,
    ).data;
    expect(first).toMatchObject({
      amount: '30.000000',
      fee: '1.000000',
      total: '31.000000',
      address: USER_ERC20,
      state: 'pending',
      remark: 'rent',
    });
    expect(await coinAccount(me.id)).toEqual({ balance: 100_000_000, held: 31_000_000 });

    expect((await rejectWithdrawal(t.handle, first.id, 'Address flagged', ops)).ok).toBe(true);
    expect(await coinAccount(me.id)).toEqual({ balance: 100_000_000, held: 0 });
    expect(await approveWithdrawal(t.handle, first.id, ops)).toMatchObject({ ok: false });

    const second = okEnvelope(withdrawResponse).parse(
      (await out(token, { address_id: String(addressId), amount: '40' })).body,
    ).data;
    const feesBefore = await platform('fees');
    const clearingBefore = await platform('withdrawals_clearing');
    const lines: string[] = [];
    expect(await runWithdrawalsCommand(['approve', String(second.id)], t.db, (l) => lines.push(l))).toBe(0);
    expect(lines[0]).toContain('is now passed');
    expect(await coinAccount(me.id)).toEqual({ balance: 59_000_000, held: 0 });
    expect((await platform('fees')) - feesBefore).toBe(1_000_000);
    expect((await platform('withdrawals_clearing')) - clearingBefore).toBe(40_000_000);

    const log = okEnvelope(withdrawalLogResponse).parse((await t.call('charge_mention/log3', {}, { token })).body).data;
    expect(log.items.map((w) => [w.id, w.state, w.reason])).toEqual([
      [second.id, 'passed', null],
      [first.id, 'rejected', 'Address flagged'],
    ]);
    const events = await t.db
      .selectFrom('user_events')
      .select('payload')
      .where('user_id', '=', me.id)
      .where('kind', '=', 'withdrawal')
      .orderBy('id')
      .execute();
    expect(events.map((e) => JSON.parse(e.payload).state)).toEqual(['pending', 'rejected', 'pending', 'passed']);
    const audit = await t.db
      .selectFrom('ops_audit')
      .select('action')
      .where('subject_type', '=', 'withdrawal')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['withdrawal.reject', 'withdrawal.approve']));
  });

  it('withdraw: bad input, wrong fund password, below minimum, short balance and a fourth request change nothing', async () => {
    const { token, addressId } = await withdrawer('100');
    const address_id = String(addressId);
    const cases: Array<[Record<string, string>, string | undefined, string]> = [
      [{ amount: '' }, 'amount', 'Please enter an amount.'],
      [{ amount: '1e3' }, 'amount', 'Please enter a valid amount.'],
      [{ amount: '-5' }, 'amount', 'The amount must be greater than 0.'],
      [{ amount: '10.0000001' }, 'amount', 'The amount has too many decimal places.'],
      [{ amount: '9.99' }, 'amount', 'The amount is below the minimum withdrawal for this coin'],
      [{ amount: '99.5' }, 'amount', 'Insufficient balance'],
      [{ fund_password: '' }, 'fund_password', 'Please enter the fund password'],
      [{ fund_password: '12ab56' }, 'fund_password', 'The fund password is exactly 6 digits'],
      [{ fund_password: '000000' }, 'fund_password', 'The fund password is wrong'],
      [{ chain: 'OMNI' }, 'address_id', 'Set a withdraw address first'],
      [{ address_id: '999999' }, 'address_id', 'This address was not found'],
      [{ remark: 'x'.repeat(101) }, 'remark', 'The input is too long'],
    ];
    const entries = await count('ledger_entries');
    const rows = await count('withdrawals');
    for (const [fields, field, message] of cases) {
      const r = await out(token, { address_id, ...fields });
      expect([r.body.type, r.body.field, r.body.message], JSON.stringify(fields)).toEqual(['error', field, message]);
    }
    expect(await count('withdrawals')).toBe(rows);
    expect(await count('ledger_entries')).toBe(entries);

    for (let i = 0; i < 3; i += 1) expect((await out(token, { address_id, amount: '10' })).body.type).toBe('ok');
    const fourth = await out(token, { address_id, amount: '10' });
    expect(fourth.body).toMatchObject({
      type: 'error',
      message: 'At most 3 withdrawal requests per day – please try again later',
    });
    expect(await count('withdrawals')).toBe(rows + 3);
    // A rolling 24 hours: a day later the user may ask again.
    t.clock.advance(24 * 3_600_000 + 1);
    expect((await out(token, { address_id, amount: '10' })).body.type).toBe('ok');
  });

  it('withdraw: the same request id twice freezes once; with other details it is refused', async () => {
    const { token, user: me, addressId } = await withdrawer('100');
    const fields = { address_id: String(addressId), amount: '25', request_id: rid('once') };
    const [a, b] = await Promise.all([out(token, fields), out(token, fields)]);
    const c = await out(token, fields);
    const ids = [a, b, c].map((r) => (r.body.data as { id: number }).id);
    expect(new Set(ids).size).toBe(1);
    expect([a, b, c].filter((r) => (r.body.data as { replayed: boolean }).replayed)).toHaveLength(2);
    expect(await coinAccount(me.id)).toEqual({ balance: 100_000_000, held: 26_000_000 });
    const other = await out(token, { ...fields, amount: '26' });
    expect(other.body.message).toBe('This request was already sent with different details.');
    expect(await coinAccount(me.id)).toEqual({ balance: 100_000_000, held: 26_000_000 });
  });

  it('100 simultaneous withdrawals of the same funds: exactly as many succeed as the balance allows', async () => {
    // 50 USDT allows two withdrawals of 20 + 1 fee.
    const { token, user: me, addressId } = await withdrawer('50');
    const results = await Promise.all(
      Array.from({ length: 100 }, () => out(token, { address_id: String(addressId), amount: '20' })),
    );
    const ok = results.filter((r) => r.body.type === 'ok');
    expect(ok).toHaveLength(2);
    expect(new Set(results.filter((r) => r.body.type === 'error').map((r) => r.body.message))).toEqual(
      new Set(['Insufficient balance']),
    );
    expect(await coinAccount(me.id)).toEqual({ balance: 50_000_000, held: 42_000_000 });
    const open = await withLedger(t.db)
      .selectFrom('ledger_holds as h')
      .innerJoin('ledger_accounts as a', 'a.id', 'h.account_id')
      .select('h.id')
      .where('a.user_id', '=', me.id)
      .where('h.state', '=', 'open')
      .execute();
    expect(open).toHaveLength(2);
  });

  it('100 simultaneous withdrawals with plenty of funds: the daily limit lets exactly 3 through', async () => {
    const { token, user: me, addressId } = await withdrawer('10000');
    const results = await Promise.all(
      Array.from({ length: 100 }, () => out(token, { address_id: String(addressId), amount: '10' })),
    );
    expect(results.filter((r) => r.body.type === 'ok')).toHaveLength(3);
    expect(await coinAccount(me.id)).toEqual({ balance: 10_000_000_000, held: 33_000_000 });
    const rows = await withFunding(t.db).selectFrom('withdrawals').select('id').where('user_id', '=', me.id).execute();
    expect(rows).toHaveLength(3);
  });

  it("a user cannot read or change another user's records by changing an id", async () => {
    const alice = await withdrawer('100');
    const bob = await withdrawer('100');
    const aDep = okEnvelope(chargeResponse).parse((await charge(alice.token)).body).data;
    const aWd = okEnvelope(withdrawResponse).parse(
      (await out(alice.token, { address_id: String(alice.addressId) })).body,
    ).data;
    const depLog = await t.call('charge_mention/log2', { id: String(aDep.id) }, { token: bob.token });
    expect(depLog.body).toMatchObject({ type: 'ok', data: { items: [], next_before_id: null } });
    const wdLog = await t.call('charge_mention/log3', { id: String(aWd.id) }, { token: bob.token });
    expect(wdLog.body).toMatchObject({ type: 'ok', data: { items: [] } });
    // Bob's withdrawal to Alice's address: not one of his.
    const theft = await out(bob.token, { address_id: String(alice.addressId) });
    expect(theft.body).toMatchObject({ type: 'error', message: 'This address was not found' });
    // Bob reusing Alice's request id touches nothing of Alice's (ids are per user).
    const same = await out(bob.token, { address_id: String(bob.addressId), request_id: 'shared-id' });
    const sameAlice = await out(alice.token, { address_id: String(alice.addressId), request_id: 'shared-id' });
    expect((same.body.data as { id: number }).id).not.toBe((sameAlice.body.data as { id: number }).id);
    const own = await t.call('charge_mention/log3', { id: String(aWd.id) }, { token: alice.token });
    expect((own.body.data as { items: unknown[] }).items).toHaveLength(1);
    // Without a session nothing is read.
    expect((await t.call('charge_mention/log3', {})).body.type).toBe(999);
  });

  it('pages through records with before_id', async () => {
    const { token } = await user();
    for (let i = 0; i < 3; i += 1) expect((await charge(token)).body.type).toBe('ok');
    const first = okEnvelope(depositLogResponse).parse(
      (await t.call('charge_mention/log2', { limit: '2' }, { token })).body,
    ).data;
    expect(first.items).toHaveLength(2);
    expect(first.next_before_id).not.toBeNull();
    const second = okEnvelope(depositLogResponse).parse(
      (await t.call('charge_mention/log2', { limit: '2', before_id: String(first.next_before_id) }, { token })).body,
    ).data;
    expect(second.items).toHaveLength(1);
    expect(second.next_before_id).toBeNull();
    expect((await t.call('charge_mention/log2', { limit: '0' }, { token })).body.message).toBe('Invalid input');
  });

  it('a review interrupted after its claim or after the ledger step is resumed by running it again, once', async () => {
    const { token, user: me } = await user();
    const dep = okEnvelope(chargeResponse).parse((await charge(token, { amount: '70' })).body).data;
    // Crash after the claim: the row says approving, nothing credited yet.
    await withFunding(t.db).updateTable('deposits').set({ state: 'approving' }).where('id', '=', dep.id).execute();
    expect(await rejectDeposit(t.handle, dep.id, 'late', ops)).toMatchObject({ ok: false });
    const log = okEnvelope(depositLogResponse).parse((await t.call('charge_mention/log2', {}, { token })).body).data;
    expect(log.items[0]?.state).toBe('pending');
    expect(await approveDeposit(t.handle, dep.id, ops)).toMatchObject({ ok: true, resumed: true });
    expect(await coinAccount(me.id)).toEqual({ balance: 70_000_000, held: 0 });

    // Crash after the ledger step: the hold is paid out, the row still says approving. Resuming pays nothing twice.
    const who = await withdrawer('100');
    const wd = okEnvelope(withdrawResponse).parse(
      (await out(who.token, { address_id: String(who.addressId) })).body,
    ).data;
    expect((await approveWithdrawal(t.handle, wd.id, ops)).ok).toBe(true);
    await withFunding(t.db).updateTable('withdrawals').set({ state: 'approving' }).where('id', '=', wd.id).execute();
    expect(await approveWithdrawal(t.handle, wd.id, ops)).toMatchObject({ ok: true, resumed: true });
    expect(await coinAccount(who.user.id)).toEqual({ balance: 79_000_000, held: 0 });
  });

  it('ops: fees set changes the minimums; bad values are refused', async () => {
    const lines: string[] = [];
    expect(await runFeesCommand(['set', 'ETH', '2', '0.02', '0.001'], t.db, (l) => lines.push(l))).toBe(0);
    expect(await runFeesCommand(['set', 'ETH', '1.5', '0.02', '0.001'], t.db, (l) => lines.push(l))).toBe(1);
    expect(await runFeesCommand(['set', 'DOGE', '1', '1', '1'], t.db, (l) => lines.push(l))).toBe(1);
    expect(await runFeesCommand(['list'], t.db, (l) => lines.push(l))).toBe(0);
    expect(lines.some((l) => l.startsWith('ETH') && l.includes('min deposit 2.00000000'))).toBe(true);
    expect(await runDepositsCommand(['approve', 'x'], t.db, (l) => lines.push(l))).toBe(2);
    expect(await runWithdrawalsCommand(['approve', '99999'], t.db, (l) => lines.push(l))).toBe(1);
    expect(lines.at(-1)).toBe('no withdrawal 99999');
  });
});
