import type { Kysely } from 'kysely';
import { formatFiat } from '../../../protocol/rules/c2c';
import { formatAmount, Ledger } from '../../ledger';
import { currentOperator } from '../../platform/audit';
import { handleOf } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import type { OpsCommand, Out } from '../../platform/ops/commands';
import { expireC2cOrders } from './expiry';
import { addMerchant, listMerchants, removeMerchant } from './merchants';
import { otcUrl, setOtcUrl } from './otc-url';
import { listAppeals, resolveAppeal } from './transitions';

const USAGE = [
  'usage: npm run ops -- c2c merchants',
  '       npm run ops -- c2c merchant add <user id|username|e-mail|+phone> <nickname…>',
  '       npm run ops -- c2c merchant remove <user>',
  '       npm run ops -- c2c appeals',
  '       npm run ops -- c2c resolve <order id> release|cancel <reason…>',
  '       npm run ops -- c2c otc-url [set <https-url>|clear]',
  '       npm run ops -- c2c expire',
].join('\n');

const iso = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

async function merchantCommand(db: Kysely<Database>, words: readonly string[], out: Out): Promise<number> {
  const [action, who, ...rest] = words;
  if (action === 'add' && who && rest.length > 0) {
    const result = await addMerchant(db, who, rest.join(' '), { operator: currentOperator() });
    if (!result.ok) {
      out(result.problem === 'bad nickname' ? 'bad nickname: 2 to 32 letters, digits, spaces, . _ -' : result.problem);
      return 1;
    }
    out(`user ${result.userId} is a merchant: ${result.nickname}`);
    return 0;
  }
  if (action === 'remove' && who && rest.length === 0) {
    const result = await removeMerchant(db, who, { operator: currentOperator() });
    if (!result.ok) {
      out(result.problem);
      return 1;
    }
    out(
      `user ${result.userId} (${result.nickname}) is no longer a merchant; ${result.closedAds ?? 0} open ad(s) closed`,
    );
    return 0;
  }
  out(USAGE);
  return 2;
}

async function otcUrlCommand(db: Kysely<Database>, words: readonly string[], out: Out): Promise<number> {
  const [action, value, ...extra] = words;
  if (action === undefined) {
    const current = await otcUrl(db);
    out(`${current.url}${current.internal ? " (the app's own C2C pages)" : ''}`);
    return 0;
  }
  if (action === 'clear' && value === undefined) {
    await setOtcUrl(db, null, currentOperator());
    out("C2C: the app's own pages");
    return 0;
  }
  if (action === 'set' && value && extra.length === 0) {
    try {
      await setOtcUrl(db, value, currentOperator());
    } catch (err) {
      out(err instanceof Error ? err.message : String(err));
      return 1;
    }
    out(`C2C: ${value}`);
    return 0;
  }
  out(USAGE);
  return 2;
}

/** `c2c …`: merchants, appeals and where C2C lives; every change audited. */
export async function runC2cCommand(words: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  const [sub, ...rest] = words;
  if (sub === 'merchants' && rest.length === 0) {
    const merchants = await listMerchants(db);
    if (merchants.length === 0) out('no merchants');
    for (const m of merchants) {
      out(
        `${String(m.userId).padStart(6)}  ${m.nickname.padEnd(32)}  ${m.active ? 'active ' : 'removed'}  ${m.openAds} open ad(s)  since ${iso(m.since)}`,
      );
    }
    return 0;
  }
  if (sub === 'merchant') return merchantCommand(db, rest, out);
  if (sub === 'otc-url') return otcUrlCommand(db, rest, out);
  if (sub === 'appeals' && rest.length === 0) {
    const appeals = await listAppeals(db);
    if (appeals.length === 0) out('no open appeals');
    for (const a of appeals) {
      out(
        `${String(a.id).padStart(6)} ${a.sn}  ${formatAmount(a.coin, a.quantity)} ${a.coin} for ${formatFiat(BigInt(a.amount))} ${a.fiat} (${a.pay_type})` +
          `  buyer ${a.buyer_id} ${a.buyer_nickname}  merchant ${a.merchant_id} ${a.merchant_nickname}` +
          `  paid ${iso(a.paid_at)}  appealed by the ${a.by} ${iso(a.opened_at)}: ${a.reason}`,
      );
    }
    return 0;
  }
  if (sub === 'resolve') {
    const [id, decision, ...reason] = rest;
    if (
      !id ||
      !/^[1-9]\d{0,12}$/.test(id) ||
      (decision !== 'release' && decision !== 'cancel') ||
      reason.length === 0
    ) {
      out(USAGE);
      return 2;
    }
    const handle = handleOf(db);
    const result = await resolveAppeal(
      { database: handle, ledger: new Ledger(handle), now: Date.now },
      Number(id),
      decision,
      reason.join(' '),
      currentOperator(),
    );
    if (!result.ok) {
      out(result.problem);
      return 1;
    }
    out(
      decision === 'release'
        ? `c2c order ${id}: coins released to the buyer (completed)`
        : `c2c order ${id}: cancelled, coins returned to the merchant`,
    );
    return 0;
  }
  if (sub === 'expire' && rest.length === 0) {
    const handle = handleOf(db);
    const expired = await expireC2cOrders({ database: handle, ledger: new Ledger(handle), now: Date.now });
    out(`c2c expiry: ${expired} order(s) expired`);
    return 0;
  }
  out(USAGE);
  return sub === undefined || sub === 'help' ? 0 : 2;
}

export const c2cOps: OpsCommand[] = [
  {
    name: 'c2c',
    help: [
      ['c2c merchants', 'every C2C merchant with their open ads'],
      ['c2c merchant add <user> <nickname…>', 'make a user a merchant with a public nickname (audited)'],
      ['c2c merchant remove <user>', 'end a merchant status; their open ads close (audited)'],
      ['c2c appeals', 'open appeals of C2C orders, oldest first'],
      ['c2c resolve <order> release|cancel <reason…>', 'decide an appeal: coins to the buyer, or back (audited)'],
      ['c2c otc-url [set <https-url>|clear]', "where set/get_otc_url sends users (the app's own pages by default)"],
      ['c2c expire', 'cancel the unpaid orders whose window ended (the job does this)'],
    ],
    run: (words, { db, out }) => runC2cCommand(words, db, out),
  },
];
