import { describe, expect, it } from 'vitest';
import { okEnvelope } from '../../protocol';
import { addressListResponse, MAX_WITHDRAW_ADDRESSES, withdrawAddress } from '../../protocol/wallet-addresses';
import { calls } from '../../server/domains';
import { withWalletAddresses } from '../../server/domains/wallet-addresses';
import { appPerSuite, DATABASES, type TestApp, uniqueEmail, uniqueMobile } from './harness';

/** Real mainnet examples: EIP-55's own checksum address, Bitcoin's genesis address, a BIP 173 SegWit address. */
const ETH_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const ETH_ADDRESS_2 = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const BTC_ADDRESS = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
const BTC_SEGWIT = 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4';
const FUND = '135790';

describe.each(DATABASES)('withdrawal addresses on %s', (kind) => {
  let t: TestApp;
  appPerSuite(kind, (app) => {
    t = app;
  });

  /** A user with a fund password set, and where their codes go. */
  async function userWithFund(fund: string | null = FUND) {
    const email = uniqueEmail('addr');
    const { token, user } = await t.registerByEmail(email);
    if (fund) {
      const set = await t.call(
        'user/e_pwd',
        { mode: 'password', login_password: 'secret1', password: fund, repassword: fund },
        { token },
      );
      expect(set.body.type).toBe('ok');
    }
    return { token, user, email };
  }

  /** A fresh `address` code to the user's own e-mail; time moves on so the per-address send limits never bite. */
  async function addressCode(token: string, email: string): Promise<string> {
    t.clock.advance(13 * 60_000);
    const sent = await t.call('sms_other_mail', { scene: 'address' }, { token });
    expect(sent.body.type).toBe('ok');
    return (await t.latestCode(email)) ?? '';
  }

  const list = async (token: string, fields: Record<string, string> = {}) =>
    okEnvelope(addressListResponse).parse((await t.call('wallet/get_address', fields, { token })).body).data;
  const liveRows = async (userId: number) =>
    (
      await withWalletAddresses(t.db)
        .selectFrom('withdraw_addresses')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow()
    ).n;

  it('saves an address with the fund password and an address code, and lists it', async () => {
    const { token, email } = await userWithFund();
    expect(await list(token)).toEqual([]);
    const code = await addressCode(token, email);
    const { body } = await t.call(
      'wallet/addaddress',
      {
        coin: 'usdt',
        chain: 'erc20',
        address: ETH_ADDRESS.toLowerCase(),
        label: ' Ledger ',
        fund_password: FUND,
        code,
      },
      { token },
    );
    const saved = okEnvelope(withdrawAddress).parse(body).data;
    // Stored in its EIP-55 spelling, whatever case was typed.
    expect(saved).toMatchObject({ coin: 'USDT', chain: 'ERC20', address: ETH_ADDRESS, label: 'Ledger' });

    const code2 = await addressCode(token, email);
    const btc = await t.call(
      'wallet/addaddress',
      { coin: 'BTC', chain: 'OMNI', address: BTC_SEGWIT, fund_password: FUND, code: code2 },
      { token },
    );
    expect(btc.body).toMatchObject({ type: 'ok', data: { address: BTC_SEGWIT.toLowerCase(), label: null } });

    const all = await list(token);
    expect(all.map((a) => a.coin)).toEqual(['BTC', 'USDT']);
    expect((await list(token, { coin: 'usdt' })).map((a) => a.id)).toEqual([saved.id]);
    expect(await list(token, { coin: 'ETH' })).toEqual([]);

    // The code was used up.
    const again = await t.call(
      'wallet/addaddress',
      { coin: 'ETH', chain: 'ERC20', address: ETH_ADDRESS_2, fund_password: FUND, code },
      { token },
    );
    expect(again.body).toMatchObject({ type: 'error', message: 'The verification code is wrong or has expired' });
  });

  it('refuses bad input with a clear message and saves nothing', async () => {
    const { token, email, user } = await userWithFund();
    const code = await addressCode(token, email);
    const valid = { coin: 'USDT', chain: 'ERC20', address: ETH_ADDRESS, fund_password: FUND, code };
    const cases: Array<[Record<string, string>, string, string | undefined]> = [
      [{ ...valid, address: BTC_ADDRESS }, 'This is not a valid address on the chosen network', 'address'],
      [
        { ...valid, address: ETH_ADDRESS.replace('aA', 'aa') },
        'This is not a valid address on the chosen network',
        'address',
      ],
      [{ ...valid, coin: 'BTC' }, 'This network is not available for the chosen coin', 'chain'],
      [{ ...valid, chain: 'TRC20' }, 'This network is not available for the chosen coin', 'chain'],
      [{ ...valid, coin: 'DOGE' }, 'Please choose a supported coin', 'coin'],
      [{ ...valid, address: '' }, 'Please enter the address', 'address'],
      [{ ...valid, address: 'x'.repeat(101) }, 'The input is too long', 'address'],
      [{ ...valid, label: 'x'.repeat(31) }, 'The input is too long', 'label'],
      [{ ...valid, fund_password: '' }, 'Please enter the fund password', 'fund_password'],
      [{ ...valid, fund_password: '12345' }, 'The fund password is exactly 6 digits', 'fund_password'],
      [{ ...valid, code: '' }, 'Please enter the verification code', 'code'],
      [{ ...valid, code: '12ab56' }, 'The verification code has 6 digits', 'code'],
      [{ ...valid, fund_password: '000000' }, 'The fund password is wrong', 'fund_password'],
      [
        { ...valid, code: code === '111111' ? '222222' : '111111' },
        'The verification code is wrong or has expired',
        'code',
      ],
    ];
    for (const [fields, message, field] of cases) {
      const { body } = await t.call('wallet/addaddress', fields, { token });
      expect(body, JSON.stringify(fields).slice(0, 100)).toMatchObject({ type: 'error', message, field });
    }
    const de = await t.call('wallet/addaddress', { ...valid, fund_password: '000000' }, { token, lang: 'de' });
    expect(de.body.message).toBe('Das Fondspasswort ist falsch');
    expect(await liveRows(user.id)).toBe(0);

    // None of that used up the code (a wrong guess counts as one of its five tries): the real request works.
    const ok = await t.call('wallet/addaddress', valid, { token });
    expect(ok.body.type).toBe('ok');
    expect(await liveRows(user.id)).toBe(1);
  });

  it('refuses an expired code', async () => {
    const { token, email, user } = await userWithFund();
    const code = await addressCode(token, email);
    t.clock.advance(10 * 60_000 + 1);
    const { body } = await t.call(
      'wallet/addaddress',
      { coin: 'ETH', chain: 'ERC20', address: ETH_ADDRESS, fund_password: FUND, code },
      { token },
    );
    expect(body).toMatchObject({ message: 'The verification code is wrong or has expired', field: 'code' });
    expect(await liveRows(user.id)).toBe(0);
  });

  it('asks for the fund password first when none is set', async () => {
    const { token, email, user } = await userWithFund(null);
    const code = await addressCode(token, email);
    const fields = { coin: 'ETH', chain: 'ERC20', address: ETH_ADDRESS, fund_password: '123456', code };
    const { body } = await t.call('wallet/addaddress', fields, { token });
    expect(body).toMatchObject({ type: 'error', message: 'Set the fund password first (for asset security)' });
    const de = await t.call('wallet/addaddress', fields, { token, lang: 'de' });
    expect(de.body.message).toBe('Lege zuerst das Fondspasswort fest (zur Sicherheit deines Vermögens)');
    expect(await liveRows(user.id)).toBe(0);
  });

  it('locks the fund password after five wrong guesses, even for the right one', async () => {
    const { token, email, user } = await userWithFund();
    const code = await addressCode(token, email);
    const fields = { coin: 'ETH', chain: 'ERC20', address: ETH_ADDRESS, code };
    for (let i = 0; i < 5; i++) {
      const { body } = await t.call('wallet/addaddress', { ...fields, fund_password: '000000' }, { token });
      expect(body.message).toBe('The fund password is wrong');
    }
    const locked = await t.call('wallet/addaddress', { ...fields, fund_password: FUND }, { token });
    expect(locked.body).toMatchObject({
      type: 'error',
      message: 'Too many wrong fund passwords – please try again later',
      data: { retry_after: expect.any(Number) },
    });
    expect(await liveRows(user.id)).toBe(0);

    // After the window the right password works again (with a fresh code).
    t.clock.advance(15 * 60_000);
    const fresh = await addressCode(token, email);
    const ok = await t.call('wallet/addaddress', { ...fields, fund_password: FUND, code: fresh }, { token });
    expect(ok.body.type).toBe('ok');
  });

  it('refuses the same address twice, however it is spelled, and keeps to the per-user limit', async () => {
    const { token, email, user } = await userWithFund();
    const code = await addressCode(token, email);
    const first = await t.call(
      'wallet/addaddress',
      { coin: 'ETH', chain: 'ERC20', address: ETH_ADDRESS, fund_password: FUND, code },
      { token },
    );
    expect(first.body.type).toBe('ok');
    const code2 = await addressCode(token, email);
    const dup = await t.call(
      'wallet/addaddress',
      { coin: 'ETH', chain: 'ERC20', address: ETH_ADDRESS.toLowerCase(), fund_password: FUND, code: code2 },
      { token },
    );
    expect(dup.body).toMatchObject({ message: 'You have already saved this address', field: 'address' });
    // The same address for another coin is another entry.
    const usdt = await t.call(
      'wallet/addaddress',
      { coin: 'USDT', chain: 'ERC20', address: ETH_ADDRESS, fund_password: FUND, code: code2 },
      { token },
    );
    expect(usdt.body.type).toBe('ok');

    // Fill up to the limit directly, then one more is refused.
    const now = t.clock.now();
    for (let i = 2; i < MAX_WITHDRAW_ADDRESSES; i++) {
      await withWalletAddresses(t.db)
        .insertInto('withdraw_addresses')
        .values({
          user_id: user.id,
          coin: 'ETH',
          chain: 'ERC20',
          address: `0x${String(i).padStart(40, '0')}`,
          label: null,
          created_at: now,
          deleted_at: null,
        })
        .execute();
    }
    const code3 = await addressCode(token, email);
    const over = await t.call(
      'wallet/addaddress',
      { coin: 'ETH', chain: 'ERC20', address: ETH_ADDRESS_2, fund_password: FUND, code: code3 },
      { token },
    );
    expect(over.body).toMatchObject({
      type: 'error',
      message: 'You can save at most 20 withdrawal addresses – delete one first',
    });
    expect(await liveRows(user.id)).toBe(MAX_WITHDRAW_ADDRESSES);
  });

  it("never lets a user read or delete another user's address", async () => {
    const alice = await userWithFund();
    const bob = await userWithFund();
    const code = await addressCode(alice.token, alice.email);
    const saved = await t.call(
      'wallet/addaddress',
      { coin: 'BTC', chain: 'OMNI', address: BTC_ADDRESS, fund_password: FUND, code },
      { token: alice.token },
    );
    const id = String(okEnvelope(withdrawAddress).parse(saved.body).data.id);

    expect(await list(bob.token)).toEqual([]);
    const stolen = await t.call('wallet/deladdress', { id }, { token: bob.token });
    expect(stolen.body).toMatchObject({ type: 'error', message: 'This address was not found', field: 'id' });
    expect((await list(alice.token)).map((a) => String(a.id))).toEqual([id]);
    // apv_address answers only about the caller's own list.
    const check = await t.call(
      'wallet/apv_address',
      { coin: 'BTC', chain: 'OMNI', address: BTC_ADDRESS },
      { token: bob.token },
    );
    expect(check.body.data).toEqual({ valid: true, saved: false });

    for (const bad of ['0', '-1', 'abc', '99999999999', '']) {
      const { body } = await t.call('wallet/deladdress', { id: bad }, { token: alice.token });
      expect(body, bad).toMatchObject({ type: 'error', field: 'id' });
    }

    const gone = await t.call('wallet/deladdress', { id }, { token: alice.token });
    expect(gone.body).toMatchObject({ type: 'ok' });
    expect(await list(alice.token)).toEqual([]);
    const twice = await t.call('wallet/deladdress', { id }, { token: alice.token });
    expect(twice.body.message).toBe('This address was not found');
    // The row stays (a past withdrawal may point at it), marked deleted.
    const row = await withWalletAddresses(t.db)
      .selectFrom('withdraw_addresses')
      .selectAll()
      .where('id', '=', Number(id))
      .executeTakeFirst();
    expect(row?.deleted_at).not.toBeNull();
  });

  it('checks addresses without saving them (apv_address)', async () => {
    const { token, email } = await userWithFund();
    const apv = (fields: Record<string, string>) => t.call('wallet/apv_address', fields, { token });
    const response = okEnvelope(calls['wallet/apv_address'].response);
    expect(response.parse((await apv({ coin: 'ETH', chain: 'ERC20', address: ETH_ADDRESS })).body).data).toEqual({
      valid: true,
      saved: false,
    });
    expect((await apv({ coin: 'ETH', chain: 'ERC20', address: BTC_ADDRESS })).body.data).toEqual({
      valid: false,
      saved: false,
    });
    expect((await apv({ coin: 'USDT', chain: 'OMNI', address: BTC_SEGWIT })).body.data).toEqual({
      valid: true,
      saved: false,
    });
    expect((await apv({ coin: 'ETH', chain: 'OMNI', address: BTC_ADDRESS })).body).toMatchObject({
      type: 'error',
      message: 'This network is not available for the chosen coin',
      field: 'chain',
    });
    expect((await apv({ coin: 'XRP', chain: 'ERC20', address: ETH_ADDRESS })).body.message).toBe(
      'Please choose a supported coin',
    );
    const code = await addressCode(token, email);
    await t.call(
      'wallet/addaddress',
      { coin: 'ETH', chain: 'ERC20', address: ETH_ADDRESS, fund_password: FUND, code },
      { token },
    );
    expect((await apv({ coin: 'eth', chain: 'erc20', address: ETH_ADDRESS.toLowerCase() })).body.data).toEqual({
      valid: true,
      saved: true,
    });
    expect(await withWalletAddresses(t.db).selectFrom('withdraw_addresses').selectAll().execute()).not.toHaveLength(0);
  });

  it('needs a session for every address call', async () => {
    for (const path of [
      'wallet/get_address',
      'wallet/addaddress',
      'wallet/deladdress',
      'wallet/apv_address',
    ] as const) {
      const { body } = await t.call(path, {});
      expect(body, path).toMatchObject({ type: 999, code: 0 });
    }
  });

  it('sends the address code to the phone of a phone-only account', async () => {
    const mobile = uniqueMobile();
    const { token } = await t.registerByPhone(mobile);
    await t.call(
      'user/e_pwd',
      { mode: 'password', login_password: 'secret1', password: FUND, repassword: FUND },
      { token },
    );
    t.clock.advance(61_000);
    await t.call('sms_other_mail', { scene: 'address' }, { token });
    const code = (await t.latestCode(`+49${mobile}`)) ?? '';
    const { body } = await t.call(
      'wallet/addaddress',
      { coin: 'USDC', chain: 'ERC20', address: ETH_ADDRESS_2, fund_password: FUND, code },
      { token },
    );
    expect(body).toMatchObject({ type: 'ok', data: { coin: 'USDC', address: ETH_ADDRESS_2 } });
  });
});
