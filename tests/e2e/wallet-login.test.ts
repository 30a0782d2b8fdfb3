import type { Locator, Page } from 'playwright-core';
import { type Hex, isHex } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { tronAddressOf, tronMessageHash } from '../../protocol/wallet-login';
import { browserPerTest, INVITE_CODE, latestCode, type RunningServer, shot, startServer } from './harness';
import { text } from './locale';
import { registerUser, type TestSession } from './users';

/**
 * Wallet login in a real Chromium at 375x812 against the real server. The browser wallets are stubs injected before
 * the app loads: `window.ethereum` (EIP-1193) and a TronLink-like `window.tronLink` / `tronWeb`, whose requests go to
 * functions exposed from Node that sign with a local key through viem (personal_sign, and TronWeb's signMessageV2
 * recipe). Covers registration and login with an Ethereum wallet, login with a TRON wallet, linking and unlinking in
 * the security centre, and a browser without any wallet (SPEC 8's message); German dark and English light.
 */
let server: RunningServer;
let page: Page;

browserPerTest(
  startServer,
  (s) => {
    server = s;
  },
  (b) => {
    page = b.page;
  },
);

const at = (path: string) => `${server.url}${path}`;
const onHome = (url: URL) => url.pathname === '/pages/index/index' || url.pathname === '/';

/**
 * The stored settings the app reads at start (language, theme, the session or none), written once per tab: later
 * loads keep what the app stored since (a login, a logout).
 */
async function stored(lang: 'de' | 'en', theme: 'dark' | 'light', session: TestSession | null = null): Promise<void> {
  const app = JSON.stringify({ version: '1.0.0', theme, token: session?.token ?? null, user: session?.user ?? null });
  await page.addInitScript(
    ([l, value]) => {
      if (!sessionStorage.getItem('e2e-started')) {
        localStorage.setItem('lang', l ?? 'de');
        localStorage.setItem('tw.app', value ?? '');
        sessionStorage.setItem('e2e-started', '1');
      }
    },
    [lang, app],
  );
}

/** Logs out locally (the stored session gone), as after the session ended. */
const forgetSession = (theme: 'dark' | 'light') =>
  page.evaluate((t) => {
    localStorage.setItem('tw.app', JSON.stringify({ version: '1.0.0', theme: t, token: null, user: null }));
  }, theme);

/** Injects both wallet stubs, backed by `key` in Node; returns what the wallets were asked to do. */
async function injectWallets(key: PrivateKeyAccount): Promise<string[]> {
  const asked: string[] = [];
  await page.exposeFunction('__e2eWalletAccount', (chain: string) => {
    asked.push(`${chain}:account`);
    return chain === 'erc' ? key.address : tronAddressOf(key.address);
  });
  await page.exposeFunction('__e2eWalletSign', async (chain: string, message: string) => {
    asked.push(`${chain}:sign`);
    if (chain === 'erc') {
      // personal_sign gets the message as hex (EIP-1193); sign those bytes.
      return key.signMessage({ message: isHex(message) ? { raw: message as Hex } : message });
    }
    return key.sign({ hash: tronMessageHash(message) });
  });
  await page.addInitScript(() => {
    type Bridge = {
      __e2eWalletAccount(chain: string): Promise<string>;
      __e2eWalletSign(chain: string, message: string): Promise<string>;
    };
    const w = window as unknown as Window & Bridge & Record<string, unknown>;
    w.ethereum = {
      request: async ({ method, params }: { method: string; params?: unknown[] }) => {
        if (method === 'eth_requestAccounts') return [await w.__e2eWalletAccount('erc')];
        if (method === 'personal_sign') return w.__e2eWalletSign('erc', String(params?.[0]));
        throw new Error(`unsupported ${method}`);
      },
    };
    const tronWeb = {
      defaultAddress: { base58: false as string | false },
      trx: { signMessageV2: (message: string) => w.__e2eWalletSign('trc', message) },
    };
    w.tronWeb = tronWeb;
    w.tronLink = {
      tronWeb,
      request: async () => {
        tronWeb.defaultAddress.base58 = await w.__e2eWalletAccount('trc');
        return { code: 200 };
      },
    };
  });
  return asked;
}

const storedSession = () =>
  page.evaluate(
    () => JSON.parse(localStorage.getItem('tw.app') ?? '{}') as { token?: string | null; user?: { id: number } | null },
  );
const storedUserId = async () => (await storedSession()).user?.id;

/** A new wallet's account proves a contact as registration does: the e-mail, its code from the server's outbox. */
async function proveEmail(dialog: Locator, lang: 'de' | 'en', email: string) {
  await dialog.getByLabel(text(lang, 'form.email'), { exact: true }).fill(email);
  await dialog.getByRole('button', { name: text(lang, 'form.sendCode') }).click();
  const code = () => {
    try {
      return latestCode(server.dataDir, email);
    } catch {
      return '';
    }
  };
  await expect.poll(code).toMatch(/^\d{6}$/);
  await dialog.getByLabel(text(lang, 'form.code'), { exact: true }).fill(code());
}

describe('wallet login in the browser', () => {
  it('in German and dark: registers with an Ethereum wallet and an invite link, then logs in with it again', async () => {
    const de = (key: string) => text('de', key);
    await stored('de', 'dark');
    const asked = await injectWallets(privateKeyToAccount(generatePrivateKey()));
    await page.goto(at(`/pages/user/login/login?invite=${INVITE_CODE}`));
    await page.getByRole('heading', { name: de('walletLogin.title') }).waitFor();
    await shot(page, 'wallet-login-de-dark');

    await page.getByRole('button', { name: de('walletLogin.erc') }).click();
    const dialog = page.getByRole('dialog', { name: de('walletLogin.newTitle') });
    await dialog.waitFor();
    expect(await dialog.getByLabel(de('form.invite')).inputValue()).toBe(INVITE_CODE);
    // A contact comes first: the codes that guard withdrawals go there.
    await dialog.getByRole('button', { name: de('auth.createAccount') }).click();
    await dialog.getByRole('alert').first().waitFor();
    await proveEmail(dialog, 'de', 'erc-wallet-e2e@example.com');
    // The user agreement must be ticked, as for any registration.
    await dialog.getByRole('button', { name: de('auth.createAccount') }).click();
    await dialog.getByRole('alert').waitFor();
    expect(await dialog.getByRole('alert').textContent()).toBe('Bitte stimme der Nutzungsvereinbarung zu');
    await dialog.locator('.check-input').check();
    await shot(page, 'wallet-login-de-dark-new-wallet');
    await dialog.getByRole('button', { name: de('auth.createAccount') }).click();
    await page.waitForURL(onHome);
    const userId = await storedUserId();
    expect(userId).toBeGreaterThan(0);
    expect(asked).toEqual(['erc:account', 'erc:sign']);

    // Logged out, the same wallet logs straight into the same account.
    await forgetSession('dark');
    await page.goto(at('/pages/user/login/login'));
    await page.getByRole('button', { name: de('walletLogin.erc') }).click();
    await page.waitForURL(onHome);
    expect(await storedUserId()).toBe(userId);
  });

  it('in English and light: logs in with a TRON wallet (TronLink-like), asking for the invite code once', async () => {
    const en = (key: string) => text('en', key);
    await stored('en', 'light');
    const asked = await injectWallets(privateKeyToAccount(generatePrivateKey()));
    await page.goto(at('/pages/user/login/login'));
    await page.getByRole('heading', { name: en('walletLogin.title') }).waitFor();
    await shot(page, 'wallet-login-en-light');
    await page.getByRole('button', { name: en('walletLogin.trc') }).click();
    const dialog = page.getByRole('dialog', { name: en('walletLogin.newTitle') });
    await proveEmail(dialog, 'en', 'trc-wallet-e2e@example.com');
    await dialog.getByLabel(en('form.invite')).fill('WRONG123');
    await dialog.locator('.check-input').check();
    await dialog.getByRole('button', { name: en('auth.createAccount') }).click();
    await dialog.getByText('This invite code is not valid').waitFor();
    await shot(page, 'wallet-login-en-light-invite-wrong');
    await dialog.getByLabel(en('form.invite')).fill(INVITE_CODE);
    await dialog.getByRole('button', { name: en('auth.createAccount') }).click();
    await page.waitForURL(onHome);
    expect(await storedUserId()).toBeGreaterThan(0);
    // One signature served both tries.
    expect(asked).toEqual(['trc:account', 'trc:sign']);
  });

  it('links an Ethereum wallet in the security centre, logs in with it, and unlinks it with the password', async () => {
    const en = (key: string) => text('en', key);
    const key = privateKeyToAccount(generatePrivateKey());
    const session = await registerUser(server, 'wallet-link@example.com');
    await stored('en', 'light', session);
    await injectWallets(key);
    await page.goto(at('/pages/settings/security/index'));
    await page.getByRole('heading', { name: en('walletLinks.title') }).waitFor();
    await page.getByText(en('walletLinks.none')).waitFor();
    await page.getByRole('button', { name: en('walletLinks.linkErc') }).click();
    await page.getByText(key.address).waitFor();
    await shot(page, 'wallet-links-en-light');

    // The linked wallet opens this account from the login page.
    await forgetSession('light');
    await page.goto(at('/pages/user/login/login'));
    await page.getByRole('button', { name: en('walletLogin.erc') }).click();
    await page.waitForURL(onHome);
    const after = await storedSession();
    expect(after.user?.id).toBe(session.user.id);
    expect(after.token).not.toBe(session.token);

    await page.goto(at('/pages/settings/security/index'));
    await page.getByRole('button', { name: 'Unlink Ethereum (ERC) wallet' }).click();
    const dialog = page.getByRole('dialog', { name: en('walletLinks.unlinkTitle') });
    await dialog.getByLabel(en('security.loginPassword')).fill('not-my-password');
    await dialog.getByRole('button', { name: en('walletLinks.unlink') }).click();
    await dialog.getByText('The login password is wrong').waitFor();
    await shot(page, 'wallet-unlink-en-light');
    await dialog.getByLabel(en('security.loginPassword')).fill('secret1');
    await dialog.getByRole('button', { name: en('walletLinks.unlink') }).click();
    await page.getByText(en('walletLinks.none')).waitFor();
  });

  it('without a wallet in the browser shows that the wallet connection failed (SPEC 8)', async () => {
    await stored('de', 'dark');
    await page.goto(at('/pages/user/login/login'));
    await page.getByRole('button', { name: text('de', 'walletLogin.erc') }).click();
    const alert = page.locator('.wallet-login-error');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(text('de', 'walletLogin.failed'));
    await shot(page, 'wallet-login-de-dark-no-wallet');
    await page.reload();
    await page.getByRole('button', { name: text('de', 'walletLogin.trc') }).click();
    await alert.waitFor();
    expect(await alert.textContent()).toBe(text('de', 'walletLogin.failed'));
    expect(page.url()).toContain('/pages/user/login/login');
  });
});
