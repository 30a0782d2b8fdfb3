import type { Hex } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { okEnvelope } from '../../protocol';
import { tronAddressOf, tronMessageHash, type WalletChain } from '../../protocol/wallet-login';
import { calls } from '../../server/domains';
import { translate } from '../../server/platform/i18n/messages';
import { appPerSuite, DATABASES, type Envelope, PLATFORM_INVITE, type TestApp, uniqueEmail } from './harness';

// Wallet login end to end over HTTP: messages for this site only, a nonce used once, each refusal with its message,
// registration with an invite code, and linking wallets to an account. Keys are local (viem's privateKeyToAccount);
// TRON signatures follow TronWeb's signMessageV2 recipe.

const newKey = () => privateKeyToAccount(generatePrivateKey());
const addressOn = (chain: WalletChain, key: PrivateKeyAccount) =>
  chain === 'erc' ? key.address : tronAddressOf(key.address);
const signOn = (chain: WalletChain, key: PrivateKeyAccount, message: string): Promise<Hex> =>
  chain === 'erc' ? key.signMessage({ message }) : key.sign({ hash: tronMessageHash(message) });

describe.each(DATABASES)('wallet login on %s', (kind) => {
  let t: TestApp;
  appPerSuite(kind, (app) => {
    t = app;
  });

  /** A call as the browser at `host` sends it (the Host header decides the site a message names). */
  async function callAt(
    path: keyof typeof calls,
    fields: Record<string, string>,
    opts: { token?: string; host?: string; lang?: string } = {},
  ): Promise<Envelope> {
    const { method } = calls[path];
    const headers: Record<string, string> = { lang: opts.lang ?? 'en', host: opts.host ?? '127.0.0.1:8080' };
    if (opts.token) headers.authorization = opts.token;
    const query = new URLSearchParams(fields).toString();
    const response = await t.app.inject({
      method,
      url: method === 'GET' && query ? `/api/${path}?${query}` : `/api/${path}`,
      headers: method === 'GET' ? headers : { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      ...(method === 'GET' ? {} : { payload: query }),
    });
    expect(response.statusCode).toBe(200);
    return response.json<Envelope>();
  }

  async function nonceFor(
    chain: WalletChain,
    address: string,
    opts: { purpose?: 'login' | 'bind'; token?: string; host?: string } = {},
  ) {
    const body = await callAt(
      'user/wallet_nonce',
      { chain, address, ...(opts.purpose ? { purpose: opts.purpose } : {}) },
      opts,
    );
    return okEnvelope(calls['user/wallet_nonce'].response).parse(body).data;
  }

  async function signedLogin(chain: WalletChain, key: PrivateKeyAccount) {
    const { message } = await nonceFor(chain, addressOn(chain, key));
    return { chain, message, signature: await signOn(chain, key, message) };
  }

  const session = (body: Envelope) => okEnvelope(calls['user/wallet_login'].response).parse(body).data;
  /** What a new wallet's account sends besides the signature: invite, agreement, and an e-mail with its code. */
  async function signup(invite: string = PLATFORM_INVITE, email = uniqueEmail('wallet')) {
    const sent = await t.call('email_send', { email, scene: 'register' });
    expect(sent.body.type).toBe('ok');
    return { invite_code: invite, agree: '1', type: 'email', email, code: (await t.latestCode(email)) ?? '' };
  }

  const refusedWith = (body: Envelope, key: string) => {
    expect(body.type, JSON.stringify(body)).toBe('error');
    expect(body.message).toBe(translate('en', key));
  };
  const list = async (token: string) =>
    okEnvelope(calls['user/wallet_list'].response).parse(await callAt('user/wallet_list', {}, { token })).data;

  it('registers an Ethereum wallet with an invite code, then logs it in again; EIP-55 throughout', async () => {
    const key = newKey();
    const nonce = await nonceFor('erc', key.address.toLowerCase());
    expect(nonce.address).toBe(key.address);
    expect(nonce.message).toContain(`127.0.0.1:8080 wants you to sign in with your Ethereum account:\n${key.address}`);
    expect(nonce.message).toContain('URI: http://127.0.0.1:8080\n');
    expect(nonce.expires_at).toBe(t.clock.now() + 600_000);
    const signature = await signOn('erc', key, nonce.message);
    const users = await t.count('users');
    const first = session(
      await callAt('user/wallet_login', {
        chain: 'erc',
        message: nonce.message,
        signature,
        ...(await signup(PLATFORM_INVITE.toLowerCase(), 'erc-wallet@example.com')),
      }),
    );
    expect(await t.count('users')).toBe(users + 1);
    expect(first.user).toMatchObject({ email: 'erc-wallet@example.com', mobile: null, has_fund_password: false });
    expect(await list(first.token)).toEqual({
      wallets: [{ chain: 'erc', address: key.address, created_at: t.clock.now() }],
      password_login: true,
    });

    const again = session(await callAt('user/wallet_login', await signedLogin('erc', key)));
    expect(again.user.id).toBe(first.user.id);
    expect(again.token).not.toBe(first.token);
    expect(await t.count('users')).toBe(users + 1);
  });

  it('registers and logs in a TRON wallet by its T-address', async () => {
    const key = newKey();
    const tron = tronAddressOf(key.address);
    const nonce = await nonceFor('trc', tron);
    expect(nonce.message).toContain('Chain ID: 728126428\n');
    expect(nonce.message).toContain(`TRON address: ${tron}`);
    const first = session(
      await callAt('user/wallet_login', {
        chain: 'trc',
        message: nonce.message,
        signature: await signOn('trc', key, nonce.message),
        ...(await signup()),
      }),
    );
    expect((await list(first.token)).wallets).toEqual([{ chain: 'trc', address: tron, created_at: t.clock.now() }]);
    expect(session(await callAt('user/wallet_login', await signedLogin('trc', key))).user.id).toBe(first.user.id);
    // The same key on Ethereum is another wallet.
    refusedWith(await callAt('user/wallet_login', await signedLogin('erc', key)), 'walletInviteRequired');
    // Another last character breaks the checksum (one address in 58 already ends in '1').
    const mistyped = `${tron.slice(0, -1)}${tron.endsWith('1') ? '2' : '1'}`;
    refusedWith(await callAt('user/wallet_nonce', { chain: 'trc', address: mistyped }), 'walletAddressInvalid');
  });

  it('asks a new wallet for an invite code without using up its signature, then refuses a replay', async () => {
    const key = newKey();
    const signed = await signedLogin('erc', key);
    const noInvite = await callAt('user/wallet_login', signed);
    refusedWith(noInvite, 'walletInviteRequired');
    expect(noInvite.field).toBe('invite_code');
    refusedWith(await callAt('user/wallet_login', { ...signed, invite_code: 'NOPE1234', agree: '1' }), 'inviteInvalid');
    const noAgreement = await callAt('user/wallet_login', { ...signed, invite_code: PLATFORM_INVITE });
    refusedWith(noAgreement, 'agreementRequired');
    expect(noAgreement.field).toBe('agree');
    // A new account needs a contact proved with its code, as registration does.
    const noContact = await callAt('user/wallet_login', { ...signed, invite_code: PLATFORM_INVITE, agree: '1' });
    refusedWith(noContact, 'walletContactRequired');
    const fields = await signup();
    refusedWith(await callAt('user/wallet_login', { ...signed, ...fields, code: '000000' }), 'codeWrong');
    const users = await t.count('users');
    session(await callAt('user/wallet_login', { ...signed, ...fields }));
    const sessions = await t.count('sessions');
    const replay = await callAt('user/wallet_login', { ...signed, ...fields });
    refusedWith(replay, 'walletNonceUsed');
    expect(await t.count('users')).toBe(users + 1);
    expect(await t.count('sessions')).toBe(sessions);
    // In German too.
    expect((await callAt('user/wallet_login', signed, { lang: 'de' })).message).toBe(
      'Diese Signatur wurde bereits verwendet: bitte signiere erneut',
    );
  });

  it('lets two requests with one signature log in once', async () => {
    const key = newKey();
    const first = await callAt('user/wallet_login', { ...(await signedLogin('erc', key)), ...(await signup()) });
    session(first);
    const signed = await signedLogin('erc', key);
    const bodies = await Promise.all([callAt('user/wallet_login', signed), callAt('user/wallet_login', signed)]);
    expect(bodies.filter((b) => b.type === 'ok')).toHaveLength(1);
    refusedWith(bodies.find((b) => b.type !== 'ok') as Envelope, 'walletNonceUsed');
  });

  it('serves loopback hosts only without PUBLIC_ORIGIN, and refuses a message for another domain', async () => {
    const key = newKey();
    refusedWith(
      await callAt('user/wallet_nonce', { chain: 'erc', address: key.address }, { host: 'evil.example' }),
      'walletSiteRefused',
    );
    expect((await nonceFor('erc', key.address, { host: 'localhost:5173' })).message).toMatch(/^localhost:5173 wants/);
    const { message } = await nonceFor('erc', key.address);
    const elsewhere = message.replaceAll('127.0.0.1:8080', 'evil.example');
    refusedWith(
      await callAt('user/wallet_login', {
        chain: 'erc',
        message: elsewhere,
        signature: await signOn('erc', key, elsewhere),
        ...(await signup()),
      }),
      'walletDomainMismatch',
    );
  });

  it('logs in and links only on the host the message was asked on (localhost is not 127.0.0.1)', async () => {
    const key = newKey();
    const asked = await nonceFor('erc', key.address, { host: 'localhost:8080' });
    expect(asked.message).toMatch(/^localhost:8080 wants/);
    const signed = {
      chain: 'erc',
      message: asked.message,
      signature: await signOn('erc', key, asked.message),
      ...(await signup()),
    };
    const users = await t.count('users');
    // The same port on another loopback name is another origin (its own storage and cookies): refused, nonce unused.
    refusedWith(await callAt('user/wallet_login', signed, { host: '127.0.0.1:8080' }), 'walletDomainMismatch');
    expect(await t.count('users')).toBe(users);
    const first = session(await callAt('user/wallet_login', signed, { host: 'localhost:8080' }));
    expect(await t.count('users')).toBe(users + 1);

    // Linking: a message asked for on localhost links nothing when posted to 127.0.0.1, and still links on localhost.
    const other = newKey();
    const bindAsked = await nonceFor('erc', other.address, {
      purpose: 'bind',
      token: first.token,
      host: 'localhost:8080',
    });
    const bind = { chain: 'erc', message: bindAsked.message, signature: await signOn('erc', other, bindAsked.message) };
    refusedWith(
      await callAt('user/wallet_bind', bind, { token: first.token, host: '127.0.0.1:8080' }),
      'walletDomainMismatch',
    );
    expect((await list(first.token)).wallets.map((w) => w.address)).toEqual([key.address]);
    expect((await callAt('user/wallet_bind', bind, { token: first.token, host: 'localhost:8080' })).type).toBe('ok');
    expect((await list(first.token)).wallets.map((w) => w.address).sort()).toEqual([key.address, other.address].sort());
  });

  it('refuses another chain, an expired message, another key and malformed input, each with its message', async () => {
    const key = newKey();
    const signed = await signedLogin('erc', key);
    const withInvite = { ...signed, invite_code: PLATFORM_INVITE, agree: '1' };
    refusedWith(await callAt('user/wallet_login', { ...withInvite, chain: 'trc' }), 'walletChainMismatch');
    const bsc = signed.message.replace('Chain ID: 1\n', 'Chain ID: 56\n');
    refusedWith(
      await callAt('user/wallet_login', { ...withInvite, message: bsc, signature: await signOn('erc', key, bsc) }),
      'walletChainMismatch',
    );
    refusedWith(
      await callAt('user/wallet_login', { ...withInvite, signature: await signOn('erc', newKey(), signed.message) }),
      'walletSignerMismatch',
    );
    refusedWith(
      await callAt('user/wallet_login', { ...withInvite, signature: await signOn('trc', key, signed.message) }),
      'walletSignerMismatch',
    );
    refusedWith(await callAt('user/wallet_login', { ...withInvite, message: 'hello' }), 'walletMessageMalformed');
    refusedWith(await callAt('user/wallet_login', { ...withInvite, signature: '0x1234' }), 'walletSignatureMalformed');
    refusedWith(await callAt('user/wallet_login', { ...withInvite, chain: 'btc' }), 'walletChainInvalid');
    refusedWith(
      await callAt('user/wallet_login', { ...withInvite, message: 'x'.repeat(5000) }),
      'walletMessageMalformed',
    );
    refusedWith(await callAt('user/wallet_nonce', { chain: 'erc', address: 'nope' }), 'walletAddressInvalid');
    // NUL bytes never reach the database (PostgreSQL refuses them in text): the edge refuses them in any field.
    refusedWith(await callAt('user/wallet_nonce', { chain: 'erc', address: '\u0000' }), 'invalidInput');
    refusedWith(await callAt('user/wallet_login', { ...withInvite, invite_code: 'A\u0000B' }), 'invalidInput');
    refusedWith(await callAt('user/wallet_login', { ...withInvite, message: '\u0000' }), 'invalidInput');
    refusedWith(
      await callAt('user/wallet_login', { ...withInvite, message: signed.message.replace('Nonce: ', 'Nonce: \u0000') }),
      'invalidInput',
    );
    const users = await t.count('users');
    // Nothing above used the nonce: the right signature still works until the message expires.
    t.clock.advance(600_000);
    refusedWith(await callAt('user/wallet_login', withInvite), 'walletMessageExpired');
    expect(await t.count('users')).toBe(users);
  });

  it('links a wallet to an e-mail account, logs in with it, and unlinks it with the login password', async () => {
    const { token, user } = await t.registerByEmail(uniqueEmail(), 'secret1');
    const other = await t.registerByEmail(uniqueEmail(), 'secret2');
    const key = newKey();
    const bind = async (as: string, chain: WalletChain = 'erc', k = key, nonceToken = as) => {
      const { message } = await nonceFor(chain, addressOn(chain, k), { purpose: 'bind', token: nonceToken });
      return callAt('user/wallet_bind', { chain, message, signature: await signOn(chain, k, message) }, { token: as });
    };
    // A linking message asked for by another user links nothing.
    refusedWith(await bind(token, 'erc', key, other.token), 'walletNonceUnknown');
    // A login message is no linking message.
    const loginMessage = await signedLogin('erc', key);
    refusedWith(await callAt('user/wallet_bind', loginMessage, { token }), 'walletNonceUnknown');
    expect((await bind(token)).data).toEqual({ chain: 'erc', address: key.address, created_at: t.clock.now() });
    refusedWith(await bind(token), 'walletAlreadyLinked');
    refusedWith(await bind(other.token), 'walletLinkedElsewhere');
    const tronKey = newKey();
    expect((await bind(token, 'trc', tronKey)).type).toBe('ok');
    expect(await list(token)).toMatchObject({
      wallets: [
        { chain: 'erc', address: key.address },
        { chain: 'trc', address: tronAddressOf(tronKey.address) },
      ],
      password_login: true,
    });
    expect(await list(other.token)).toEqual({ wallets: [], password_login: true });

    expect(session(await callAt('user/wallet_login', await signedLogin('erc', key))).user.id).toBe(user.id);

    const unbind = (as: string, password: string, address: string = key.address) =>
      callAt('user/wallet_unbind', { chain: 'erc', address, password }, { token: as });
    refusedWith(await unbind(other.token, 'secret2'), 'walletNotLinked');
    refusedWith(await unbind(token, 'wrong-password'), 'loginPasswordWrong');
    expect((await unbind(token, 'secret1', key.address.toLowerCase())).type).toBe('ok');
    expect((await list(token)).wallets.map((w) => w.chain)).toEqual(['trc']);
    // The wallet is free again: logging in with it now registers a new account.
    refusedWith(await callAt('user/wallet_login', await signedLogin('erc', key)), 'walletInviteRequired');
  });

  it("secures a wallet's account through its contact: a fund password by code, a login password by reset", async () => {
    const key = newKey();
    const email = uniqueEmail('wallet-own');
    const { token } = session(
      await callAt('user/wallet_login', {
        ...(await signedLogin('erc', key)),
        ...(await signup(PLATFORM_INVITE, email)),
      }),
    );
    // The account starts with a password nobody knows: password login fails, unlinking cannot be confirmed.
    expect((await callAt('user/login', { account: email, password: 'secret1' })).type).toBe('error');
    refusedWith(
      await callAt('user/wallet_unbind', { chain: 'erc', address: key.address, password: 'secret1' }, { token }),
      'loginPasswordWrong',
    );
    // The codes that guard withdrawals reach its contact: the fund password is set with one.
    t.clock.advance(61_000);
    expect((await t.call('sms_other_mail', { scene: 'fund' }, { token })).body.type).toBe('ok');
    const fundCode = (await t.latestCode(email)) ?? '';
    const fund = await t.call(
      'user/e_pwd',
      { mode: 'code', code: fundCode, password: '135790', repassword: '135790' },
      {
        token,
      },
    );
    expect(fund.body.type).toBe('ok');
    // "Forgot password" gives it a login password; then it can unlink its wallet like any account.
    t.clock.advance(61_000);
    expect((await t.call('email_send', { email, scene: 'forget' })).body.type).toBe('ok');
    const forgetCode = (await t.latestCode(email)) ?? '';
    const reset = await t.call('user/forget', {
      type: 'email',
      email,
      code: forgetCode,
      password: 'own-pass1',
      repassword: 'own-pass1',
    });
    expect(reset.body.type).toBe('ok');
    const again = session(await callAt('user/login', { account: email, password: 'own-pass1' }));
    expect(again.user.has_fund_password).toBe(true);
    expect(
      (await callAt('user/wallet_unbind', { chain: 'erc', address: key.address, password: 'own-pass1' }, again)).type,
    ).toBe('ok');
    expect(await list(again.token)).toEqual({ wallets: [], password_login: true });
  });

  it('needs a session for linking, unlinking and the list', async () => {
    expect((await callAt('user/wallet_list', {})).type).toBe(999);
    expect((await callAt('user/wallet_bind', { chain: 'erc', message: 'x', signature: '0x' })).type).toBe(999);
    expect((await callAt('user/wallet_unbind', { chain: 'erc', address: '0x', password: 'x' })).type).toBe(999);
  });
});

describe.each(DATABASES)('wallet login behind PUBLIC_ORIGIN on %s', (kind) => {
  let t: TestApp;
  appPerSuite(
    kind,
    (app) => {
      t = app;
    },
    { publicOrigins: ['http://trade.example.com'] },
  );

  it('names the configured site and refuses every other host, loopback included', async () => {
    const key = newKey();
    const at = (host: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/wallet_nonce',
        headers: { host, lang: 'en', 'content-type': 'application/x-www-form-urlencoded' },
        payload: `chain=erc&address=${key.address}`,
      });
    const ok = (await at('TRADE.example.com')).json<Envelope>();
    expect(ok.type).toBe('ok');
    expect((ok.data as { message: string }).message).toMatch(/^trade\.example\.com wants you to sign in/);
    expect((ok.data as { message: string }).message).toContain('URI: http://trade.example.com\n');
    for (const host of ['127.0.0.1:8080', 'trade.example.com:8443', 'evil.example']) {
      expect((await at(host)).json<Envelope>().message, host).toBe(translate('en', 'walletSiteRefused'));
    }
  });
});
