import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserPerTest, INVITE_CODE, latestCode, type RunningServer, shot, startServer, withDb } from './harness';
import { text } from './locale';
import { postApi } from './users';

/**
 * Withdrawal addresses and bank cards in a real Chromium at 375x812 against the real server: set the fund password
 * from the address form's prompt, save an address with a code from the outbox, pick it, delete it with
 * confirmation; bind a bank card and see it masked, pick it for a bank withdrawal.
 */
let server: RunningServer;
let page: Page;

const ETH_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const BTC_ADDRESS = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';

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
const onPath = (path: string) => (url: URL) => url.pathname === path;

async function codeFor(address: string, after = ''): Promise<string> {
  await expect
    .poll(() => {
      try {
        const code = latestCode(server.dataDir, address);
        return code !== after ? code : '';
      } catch {
        return '';
      }
    })
    .toMatch(/^\d{6}$/);
  return latestCode(server.dataDir, address);
}

/** A registered user whose session the browser already holds (the UI flows of registering are tested elsewhere). */
async function loggedIn(tag: string, lang: 'de' | 'en') {
  const email = `${tag}-${Date.now()}@example.com`;
  await postApi(server, 'email_send', { email, scene: 'register' });
  const code = await codeFor(email);
  const reg = await postApi(server, 'user/register', {
    type: 'email',
    email,
    code,
    password: 'e2e-secret',
    repassword: 'e2e-secret',
    invite_code: INVITE_CODE,
    agree: '1',
  });
  if (reg.type !== 'ok') throw new Error(`register failed: ${reg.message}`);
  const { token, user } = reg.data as { token: string; user: { id: number } };
  // The server allows one code per address and minute; age the register code's send so the next one may go now.
  withDb(server.dataDir, (db) =>
    db.prepare('update rate_limit_hits set at = at - 120000 where bucket = ?').run(`code:address:${email}`),
  );
  await page.goto(at('/pages/settings/index'));
  await page.evaluate(
    ([app, l]) => {
      localStorage.setItem('tw.app', app ?? '');
      localStorage.setItem('lang', l ?? 'de');
    },
    [JSON.stringify({ version: '1.0.0', theme: 'dark', token, user }), lang],
  );
  return { email, token, userId: user.id, registerCode: code };
}

describe('withdrawal addresses and bank cards in the browser', () => {
  it('sets the fund password when asked, saves an address with a code, picks it and deletes it', async () => {
    const { email, userId, registerCode } = await loggedIn('addr', 'de');
    const de = (key: string) => text('de', key);

    await page.goto(at('/pages/user/address/index'));
    await page.getByRole('heading', { name: de('addresses.emptyTitle') }).waitFor();
    await shot(page, 'address-empty-de');
    await page
      .getByRole('link', { name: de('addresses.add') })
      .last()
      .click();
    await page.waitForURL(onPath('/pages/user/address/create'));

    // No fund password yet: the form is replaced by the way to set one.
    await page.getByRole('heading', { name: de('addresses.fundFirstTitle') }).waitFor();
    await page.getByRole('link', { name: de('addresses.setFundPassword') }).click();
    await page.waitForURL(onPath('/pages/settings/security/changePayPassword'));
    await page.getByLabel(de('fund.loginPassword')).fill('e2e-secret');
    await page.getByLabel(de('fund.newPassword'), { exact: true }).fill('246813');
    await page.getByLabel(de('fund.repeat'), { exact: true }).fill('246813');
    await page.getByRole('button', { name: de('common.save') }).click();
    await page.waitForURL(onPath('/pages/user/address/create'));

    // A Bitcoin address on the ERC20 network is refused live, before anything is sent.
    const address = page.getByLabel(de('addresses.address'), { exact: true });
    await address.fill(BTC_ADDRESS);
    await page.getByText('Das ist keine gültige Adresse im gewählten Netzwerk').waitFor();
    await address.fill(ETH_ADDRESS.toLowerCase());
    await page.getByText('Gültige ERC20-Adresse').waitFor();
    await page.getByLabel(de('addresses.label')).fill('Hardware');
    await page.getByLabel(de('addresses.fundPassword'), { exact: true }).fill('246813');
    await page.getByRole('button', { name: de('form.sendCode') }).click();
    await page.getByLabel(de('form.code')).fill(await codeFor(email, registerCode));
    await shot(page, 'address-create-filled-de');
    await page.getByRole('button', { name: de('addresses.save') }).click();

    await page.waitForURL(onPath('/pages/user/address/index'));
    // Saved in its checksum spelling.
    await page.getByText(ETH_ADDRESS).waitFor();
    await page.getByText('Hardware').waitFor();
    await shot(page, 'address-list-de');

    // The withdraw page's picker offers it; choosing it goes back to where the user came from.
    await page.goto(at('/pages/user/address/address?coin=USDT'));
    await page.getByRole('heading', { name: de('addresses.chooseTitleCoin').replace('{{coin}}', 'USDT') }).waitFor();
    await shot(page, 'address-choose-de');
    await page.getByRole('radio').click();
    await page.waitForURL((url) => url.pathname !== '/pages/user/address/address');
    await page.goto(at('/pages/user/address/address?coin=BTC'));
    await page.getByRole('heading', { name: de('addresses.emptyCoinTitle').replace('{{coin}}', 'BTC') }).waitFor();

    // Delete, with confirmation.
    await page.goto(at('/pages/user/address/index'));
    await page.getByRole('button', { name: de('addresses.delete') }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(ETH_ADDRESS).waitFor();
    await shot(page, 'address-delete-confirm-de');
    await dialog.getByRole('button', { name: de('common.cancel') }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await page.getByText(ETH_ADDRESS).waitFor();
    await page.getByRole('button', { name: de('addresses.delete') }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: de('addresses.delete') })
      .click();
    await page.getByRole('heading', { name: de('addresses.emptyTitle') }).waitFor();
    const row = withDb(server.dataDir, (db) =>
      db.prepare('select deleted_at from withdraw_addresses where user_id = ?').get(userId),
    ) as { deleted_at: number | null };
    expect(row.deleted_at).not.toBeNull();
  });

  it('binds a bank card, shows it masked and picks it for a bank withdrawal', async () => {
    await loggedIn('bank', 'en');
    const en = (key: string) => text('en', key);

    await page.goto(at('/pages/assets/withdraw/bank/bank'));
    await page.getByRole('heading', { name: en('bankCards.emptyTitle') }).waitFor();
    await page.getByRole('link', { name: en('bankCards.add') }).click();
    await page.waitForURL(onPath('/pages/bankbind/addbank'));

    // Saving an empty form names what is missing and saves nothing.
    await page.getByRole('button', { name: en('bankCards.save') }).click();
    await page.getByText('Please enter the IBAN').waitFor();
    await page.getByText('Please enter your full name').waitFor();

    const fill = (field: string, value: string) =>
      page.getByLabel(en(`bankCards.field.${field}`), { exact: true }).fill(value);
    await fill('name', 'Erika Mustermann');
    await fill('cardholder_name', 'ERIKA MUSTERMANN');
    await fill('payee_address', 'Heidestraße 17, Köln');
    await fill('postal_code', '51147');
    await fill('bank_name', 'Commerzbank');
    await fill('branch_name', 'Köln Innenstadt');
    await fill('branch_number', '37040044');
    await fill('bank_address', 'Unter Sachsenhausen 21, Köln');
    await fill('swift_code', 'COBADEFFXXX');
    await fill('card_number', '4111111111111111');
    await fill('bank_account', '0532013000');
    await fill('iban', 'DE89370400440532013001');
    await page.getByRole('button', { name: en('bankCards.save') }).click();
    await page.getByText('This IBAN is not valid – please check it').first().waitFor();
    await fill('iban', 'DE89370400440532013000');
    // Typed numbers are grouped as the user goes.
    expect(await page.getByLabel(en('bankCards.field.iban'), { exact: true }).inputValue()).toBe(
      'DE89 3704 0044 0532 0130 00',
    );
    await shot(page, 'bank-add-filled-en');
    await page.getByRole('button', { name: en('bankCards.save') }).click();

    // Back on the picker: the card, masked.
    await page.waitForURL(onPath('/pages/assets/withdraw/bank/bank'));
    await page.getByText('**** 1111').waitFor();
    await page.getByText('DE **** 3000').waitFor();
    expect(await page.content()).not.toContain('4111111111111111');
    await shot(page, 'bank-pick-en');
    await page.getByRole('button', { name: 'Withdraw to card **** 1111' }).click();
    await page.waitForURL((url) => url.pathname !== '/pages/assets/withdraw/bank/bank');

    await page.goto(at('/pages/bankbind/index'));
    await page.getByText('Commerzbank').waitFor();
    await page.getByText('**** 1111').waitFor();
    await shot(page, 'bank-list-en');
  });
});
