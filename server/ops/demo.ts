import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import type { Config } from '../config';
import { type CallPath, calls } from '../domains';
import { ensurePlatformInviteCode, withAccount } from '../domains/account';
import { loadDataKey } from '../domains/bank-cards';
import { addMerchant, withC2c } from '../domains/c2c';
import { runFinanceCommand, withFinance } from '../domains/finance';
import { approveDeposit, setDepositAddress } from '../domains/funding';
import { addSampleArticles } from '../domains/help';
import { approveVerification } from '../domains/identity';
import { runIeoCommand, withIeo } from '../domains/ieo';
import { addSampleNews } from '../domains/news';
import { addSamplePoll } from '../domains/polls';
import { uploadsDirOf } from '../domains/uploads';
import { formatAmount, Ledger } from '../ledger';
import type { DatabaseHandle } from '../platform/db/connect';
import type { Out } from '../platform/ops/commands';

/**
 * `npm run ops -- demo`: a user a newcomer can trade with on a fresh install. It goes through the product's own
 * doors, not around them: registers by e-mail with a code from the outbox, passes basic verification (approved as an
 * operator would), and deposits 10,000 USDT with a proof image that an operator approves, so the ledger postings and
 * the audit entries are those of any other user. Run again, it reuses the user and tops the balance up to the same
 * amount only when it is lower.
 */

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'demo-trader';
const DEMO_DEPOSIT = '10000';
/** An address the demo deposit names when the operator has configured none (a fresh install). */
const DEMO_ADDRESS = `0x${'d'.repeat(40)}`;
/** A real 1×1 PNG: the proof image of the demo deposit. */
const PROOF_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

interface Envelope {
  type: string | number;
  message: string;
  data?: unknown;
}

class Door {
  constructor(private readonly app: FastifyInstance) {}

  async call<T>(path: CallPath, fields: Record<string, string>, token?: string): Promise<T> {
    const { method } = calls[path];
    const query = new URLSearchParams(fields).toString();
    const headers: Record<string, string> = { lang: 'en' };
    if (token) headers.authorization = token;
    if (method !== 'GET') headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await this.app.inject({
      method,
      url: method === 'GET' && query ? `/api/${path}?${query}` : `/api/${path}`,
      headers,
      ...(method === 'GET' ? {} : { payload: query }),
    });
    const body = response.json<Envelope>();
    if (body.type !== 'ok') throw new Error(`${path}: ${body.message}`);
    return body.data as T;
  }

  /** Uploads the proof image as the app does (multipart, built by the platform's FormData). */
  async upload(token: string): Promise<number> {
    const form = new FormData();
    form.append('file', new Blob([PROOF_PNG], { type: 'image/png' }), 'proof.png');
    const encoded = new Response(form);
    const response = await this.app.inject({
      method: 'POST',
      url: '/api/upload/image',
      headers: { authorization: token, lang: 'en', 'content-type': encoded.headers.get('content-type') ?? '' },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    const body = response.json<Envelope>();
    if (body.type !== 'ok') throw new Error(`upload: ${body.message}`);
    return (body.data as { id: number }).id;
  }
}

/**
 * On an install without any, sample finance products with a funded reserve and an IEO project whose subscription
 * window opens now, set up with the operators' own commands (audited like any other), so the Trust tab and the
 * publication pages have something to show. Rates are modest samples, not promises.
 */
async function demoProducts(database: DatabaseHandle, out: Out): Promise<void> {
  const products = await withFinance(database.db).selectFrom('finance_products').select('id').limit(1).execute();
  if (products.length === 0) {
    const steps = [
      ['fund', 'USDT', '1000000'],
      ['add', 'trust', 'USDT', '7', '0.0002', '50', '20000', 'USDT Trust 7'],
      ['add', 'trust', 'USDT', '30', '0.0003', '100', '50000', 'USDT Trust 30'],
      ['add', 'hosting', 'USDT', '90', '0.00035', '500', '100000', 'USDT Hosting 90'],
    ];
    for (const words of steps) {
      if ((await runFinanceCommand(words, database.db, out)) !== 0) throw new Error(`finance ${words.join(' ')}`);
    }
    await runFinanceCommand(['recommend', '3', 'on'], database.db, out);
  }
  const projects = await withIeo(database.db).selectFrom('ieo_projects').select('id').limit(1).execute();
  if (projects.length === 0) {
    const created = await runIeoCommand(
      [
        'create',
        'coin=DEMO',
        'name=Demo Token',
        'price=0.05',
        'listing=0.08',
        'supply=1000000',
        'cap=20000',
        'total=100000000',
        'circulating=20000000',
        'start=+0m',
        'end=+30m',
        'allot=+30m',
        'pay=+60m',
        'list=+60m',
        'unlock=+1d',
        'desc=A sample project of the demo install: subscribe within 30 minutes, pay within the next 30.',
      ],
      database.db,
      out,
    );
    if (created !== 0) throw new Error('ieo create');
  }
}

export const DEMO_MERCHANT_EMAIL = 'merchant@example.com';
export const DEMO_MERCHANT_PASSWORD = 'demo-merchant';
/** A valid Bitcoin (OMNI) address the demo's BTC deposit names when the operator has configured none. */
const DEMO_BTC_ADDRESS = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
const DEMO_IBAN = 'DE02 1001 0010 0006 8201 01';

/**
 * On an install without C2C merchants: a second verified demo user, "Demo Merchant", funded with BTC and USDT through
 * the same deposit-and-approve flow, marked a merchant by the operator's own command (audited), with two open ads
 * (sample prices and sample payment details, not a real account).
 */
async function demoMerchant(door: Door, database: DatabaseHandle, invite: string, out: Out): Promise<void> {
  const merchants = await withC2c(database.db).selectFrom('c2c_merchants').select('user_id').limit(1).execute();
  if (merchants.length > 0) return;
  const existing = await database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', DEMO_MERCHANT_EMAIL)
    .executeTakeFirst();
  let token: string;
  if (existing) {
    token = (
      await door.call<{ token: string }>('user/login', {
        account: DEMO_MERCHANT_EMAIL,
        password: DEMO_MERCHANT_PASSWORD,
      })
    ).token;
  } else {
    await door.call('email_send', { email: DEMO_MERCHANT_EMAIL, scene: 'register' });
    const code = await withAccount(database.db)
      .selectFrom('code_outbox')
      .select('code')
      .where('address', '=', DEMO_MERCHANT_EMAIL)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const session = await door.call<{ token: string }>('user/register', {
      type: 'email',
      email: DEMO_MERCHANT_EMAIL,
      code: code.code,
      password: DEMO_MERCHANT_PASSWORD,
      repassword: DEMO_MERCHANT_PASSWORD,
      invite_code: invite,
      agree: '1',
    });
    token = session.token;
    out(`registered ${DEMO_MERCHANT_EMAIL}`);
  }
  const userId = (await door.call<{ id: number }>('user/center', {}, token)).id;
  const kyc = await door.call<{ basic: { state: string } }>('user/real_name_info', {}, token);
  if (kyc.basic.state !== 'verified') {
    const submitted = await door.call<{ id: number }>(
      'user/real_name',
      { country: 'DE', name: 'Demo Merchant', id_number: 'DEMO0002', address: 'Market Street 2, Berlin', consent: '1' },
      token,
    );
    const review = await approveVerification(database.db, submitted.id, { operator: 'demo' });
    if (!review.ok) throw new Error(`verification: ${review.problem}`);
  }
  const deposits = [
    { coin: 'BTC', chain: 'OMNI', amount: '2', hash: randomBytes(32).toString('hex'), fallback: DEMO_BTC_ADDRESS },
    {
      coin: 'USDT',
      chain: 'ERC20',
      amount: '20000',
      hash: `0x${randomBytes(32).toString('hex')}`,
      fallback: DEMO_ADDRESS,
    },
  ] as const;
  const ledger = new Ledger(database);
  for (const d of deposits) {
    const held = (await ledger.balances(userId)).find((b) => b.type === 'coin' && b.currency === d.coin);
    if ((held?.balance ?? 0) > 0) continue;
    await door.call('wallet/deposit_address', { coin: d.coin, chain: d.chain }, token).catch(async () => {
      const set = await setDepositAddress(database.db, d.coin, d.chain, d.fallback, { operator: 'demo' });
      if (!set.ok) throw new Error(`deposit address: ${set.problem}`);
      out(`no ${d.coin} (${d.chain}) deposit address was configured: set ${d.fallback} for the demo`);
    });
    const proof = await door.upload(token);
    const deposit = await door.call<{ id: number }>(
      'wallet/charge_req',
      {
        method: 'crypto',
        coin: d.coin,
        chain: d.chain,
        hash: d.hash,
        amount: d.amount,
        proof: String(proof),
        request_id: `demo-${randomBytes(8).toString('hex')}`,
      },
      token,
    );
    const approved = await approveDeposit(database, deposit.id, { operator: 'demo' });
    if (!approved.ok) throw new Error(`deposit: ${approved.problem}`);
    out(`deposited ${d.amount} ${d.coin} for the demo merchant (deposit ${deposit.id}, approved)`);
  }
  const marked = await addMerchant(database.db, String(userId), 'Demo Merchant', { operator: 'demo' });
  if (!marked.ok) throw new Error(`c2c merchant: ${marked.problem}`);
  const sepa = { type: 'sepa', name: 'Demo Merchant', account: DEMO_IBAN, note: 'Demo Bank (sample details)' };
  const ads = [
    {
      coin: 'BTC',
      fiat: 'EUR',
      price: '58500',
      amount: '0.5',
      min_fiat: '50',
      max_fiat: '5000',
      pay_methods: JSON.stringify([
        sepa,
        { type: 'paypal', name: 'Demo Merchant', account: DEMO_MERCHANT_EMAIL, note: '' },
      ]),
      note: 'A sample ad of the demo install: pay within 30 minutes and mark the order paid.',
    },
    {
      coin: 'USDT',
      fiat: 'EUR',
      price: '0.93',
      amount: '5000',
      min_fiat: '20',
      max_fiat: '2000',
      pay_methods: JSON.stringify([
        sepa,
        { type: 'revolut', name: 'Demo Merchant', account: '@demomerchant', note: '' },
      ]),
      note: 'A sample ad of the demo install.',
    },
  ];
  for (const ad of ads) await door.call('ctc/merchant/ad/save', ad, token);
  out(`C2C merchant "Demo Merchant" with ${ads.length} ads: ${DEMO_MERCHANT_EMAIL} / ${DEMO_MERCHANT_PASSWORD}`);
}

export async function runDemo(config: Config, database: DatabaseHandle, out: Out): Promise<number> {
  const dataKey = loadDataKey({ dataKey: config.dataKey, dataDir: config.dataDir });
  const app = await buildApp({
    database,
    staticDir: false,
    uploadsDir: uploadsDirOf(config.dataDir),
    dataKey: dataKey.key,
  });
  try {
    const door = new Door(app);
    const invite = await ensurePlatformInviteCode(database.db, config.inviteCode);
    const existing = await database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', DEMO_EMAIL)
      .executeTakeFirst();
    let token: string;
    if (existing) {
      const session = await door.call<{ token: string }>('user/login', {
        account: DEMO_EMAIL,
        password: DEMO_PASSWORD,
      });
      token = session.token;
      out(`reusing ${DEMO_EMAIL}`);
    } else {
      await door.call('email_send', { email: DEMO_EMAIL, scene: 'register' });
      const code = await withAccount(database.db)
        .selectFrom('code_outbox')
        .select('code')
        .where('address', '=', DEMO_EMAIL)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      const session = await door.call<{ token: string }>('user/register', {
        type: 'email',
        email: DEMO_EMAIL,
        code: code.code,
        password: DEMO_PASSWORD,
        repassword: DEMO_PASSWORD,
        invite_code: invite,
        agree: '1',
      });
      token = session.token;
      out(`registered ${DEMO_EMAIL}`);
    }
    const userId = (await door.call<{ id: number }>('user/center', {}, token)).id;

    const kyc = await door.call<{ basic: { state: string } }>('user/real_name_info', {}, token);
    if (kyc.basic.state !== 'verified') {
      const submitted = await door.call<{ id: number }>(
        'user/real_name',
        {
          country: 'DE',
          name: 'Demo Trader',
          id_number: 'DEMO0001',
          address: 'Demo Street 1, Berlin',
          consent: '1',
        },
        token,
      );
      const review = await approveVerification(database.db, submitted.id, { operator: 'demo' });
      if (!review.ok) throw new Error(`verification: ${review.problem}`);
      out('basic verification approved');
    }

    const ledger = new Ledger(database);
    const usdt = (await ledger.balances(userId)).find((b) => b.type === 'coin' && b.currency === 'USDT');
    if ((usdt?.balance ?? 0) < 10_000_000_000) {
      const address = await door
        .call<{ address: string }>('wallet/deposit_address', { coin: 'USDT', chain: 'ERC20' }, token)
        .catch(async () => {
          const set = await setDepositAddress(database.db, 'USDT', 'ERC20', DEMO_ADDRESS, { operator: 'demo' });
          if (!set.ok) throw new Error(`deposit address: ${set.problem}`);
          out(`no USDT (ERC20) deposit address was configured: set ${DEMO_ADDRESS} for the demo`);
          return { address: DEMO_ADDRESS };
        });
      const proof = await door.upload(token);
      const deposit = await door.call<{ id: number }>(
        'wallet/charge_req',
        {
          method: 'crypto',
          coin: 'USDT',
          chain: 'ERC20',
          hash: `0x${randomBytes(32).toString('hex')}`,
          amount: DEMO_DEPOSIT,
          proof: String(proof),
          request_id: `demo-${randomBytes(8).toString('hex')}`,
        },
        token,
      );
      const approved = await approveDeposit(database, deposit.id, { operator: 'demo' });
      if (!approved.ok) throw new Error(`deposit: ${approved.problem}`);
      out(`deposited ${DEMO_DEPOSIT} USDT to ${address.address} (deposit ${deposit.id}, approved)`);
    }
    await demoProducts(database, out);
    await demoMerchant(door, database, invite, out);
    const articles = await addSampleArticles(database.db, { operator: 'demo' });
    if (articles > 0) out(`added ${articles} help articles (npm run ops -- articles list)`);
    const news = await addSampleNews(database.db, { operator: 'demo' });
    if (news > 0) out(`added ${news} news and announcements (npm run ops -- news list)`);
    const poll = await addSamplePoll(database.db, { operator: 'demo' });
    if (poll !== null) out(`opened listing poll ${poll} for 14 days (npm run ops -- polls list)`);
    const balance = (await ledger.balances(userId)).find((b) => b.type === 'coin' && b.currency === 'USDT');
    out(
      `login: ${DEMO_EMAIL}  password: ${DEMO_PASSWORD}  (coin account: ${formatAmount('USDT', balance?.available ?? 0)} USDT)`,
    );
    return 0;
  } finally {
    await app.close();
  }
}
