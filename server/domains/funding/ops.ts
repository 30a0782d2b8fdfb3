import type { Kysely } from 'kysely';
import { CHAIN_COINS, canonicalAddress, isAddressOnChain, isChainCoin, isChainOf } from '../../../protocol/chains';
import { formatAmount, parseAmount } from '../../ledger';
import { recordAudit } from '../../platform/audit';
import { handleOf } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import type { OpsCommand } from '../../platform/ops/commands';
import {
  approveDeposit,
  approveWithdrawal,
  listPendingDeposits,
  listPendingWithdrawals,
  type ReviewResult,
  rejectDeposit,
  rejectWithdrawal,
} from './review';
import { BANK_DETAILS_KEY, BANK_DETAILS_MAX } from './settings';
import { withFunding } from './tables';

// The review queues live with the decisions in review.ts (the console serves them too); named here as before.
export { listPendingDeposits, listPendingWithdrawals, type PendingDeposit, type PendingWithdrawal } from './review';

/**
 * Operator commands for deposits and withdrawals (`npm run ops -- deposits|withdrawals|deposit-address|
 * deposit-bank|fees ...`). Reviews go through server/domains/funding/review.ts; setting changes are audited in the
 * transaction that makes them.
 */

type Out = (line: string) => void;

/** The CLI hands over the Kysely instance only; the ledger needs to know the dialect too. */

const parseId = (raw: string | undefined): number | null => (raw && /^[1-9]\d{0,11}$/.test(raw) ? Number(raw) : null);
const when = (ms: number) => new Date(ms).toISOString();

function report(result: ReviewResult, noun: string, id: number, out: Out): number {
  if (!result.ok) {
    out(result.problem);
    return 1;
  }
  out(`${noun} ${id} (user ${result.userId}) is now ${result.state}${result.resumed ? ' (resumed)' : ''}`);
  return 0;
}

const DEPOSITS_USAGE = 'usage: npm run ops -- deposits list | deposits approve <id> | deposits reject <id> <reason...>';
const WITHDRAWALS_USAGE =
  'usage: npm run ops -- withdrawals list | withdrawals approve <id> | withdrawals reject <id> <reason...>';

/** `deposits list | approve <id> | reject <id> <reason...>`. */
export async function runDepositsCommand(args: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  const [sub, rawId, ...words] = args;
  if (sub === 'list') {
    const rows = await listPendingDeposits(db);
    if (rows.length === 0) out('no deposits waiting for review');
    for (const d of rows) {
      const what = d.method === 'crypto' ? `${d.chain} hash ${d.hash}` : `bank card …${d.cardLast4}`;
      out(
        `#${d.id}  ${d.state.padEnd(9)}  user ${d.userId} (${d.username})  ${d.amount} ${d.coin}  ${what}  proof upload ${d.proof}  ${when(d.createdAt)}`,
      );
    }
    return 0;
  }
  const id = parseId(rawId);
  if ((sub !== 'approve' && sub !== 'reject') || id === null) {
    out(DEPOSITS_USAGE);
    return 2;
  }
  const handle = handleOf(db);
  const result =
    sub === 'approve' ? await approveDeposit(handle, id) : await rejectDeposit(handle, id, words.join(' '));
  return report(result, 'deposit', id, out);
}

/** `withdrawals list | approve <id> | reject <id> <reason...>`. */
export async function runWithdrawalsCommand(args: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  const [sub, rawId, ...words] = args;
  if (sub === 'list') {
    const rows = await listPendingWithdrawals(db);
    if (rows.length === 0) out('no withdrawals waiting for review');
    for (const w of rows) {
      out(
        `#${w.id}  ${w.state.padEnd(9)}  user ${w.userId} (${w.username})  ${w.amount} ${w.coin} + fee ${w.fee}  to ${w.chain} ${w.address}  ${when(w.createdAt)}${w.remark ? `  remark: ${w.remark}` : ''}`,
      );
    }
    return 0;
  }
  const id = parseId(rawId);
  if ((sub !== 'approve' && sub !== 'reject') || id === null) {
    out(WITHDRAWALS_USAGE);
    return 2;
  }
  const handle = handleOf(db);
  const result =
    sub === 'approve' ? await approveWithdrawal(handle, id) : await rejectWithdrawal(handle, id, words.join(' '));
  return report(result, 'withdrawal', id, out);
}

/** Sets the platform's receiving address for a coin and chain (checked with the chain's address rules). */
export async function setDepositAddress(
  db: Kysely<Database>,
  coinRaw: string,
  chainRaw: string,
  addressRaw: string,
  options: { operator?: string; now?: () => number } = {},
): Promise<{ ok: true; address: string } | { ok: false; problem: string }> {
  const coin = coinRaw.trim().toUpperCase();
  const chain = chainRaw.trim().toUpperCase();
  const address = addressRaw.trim();
  if (!isChainCoin(coin)) return { ok: false, problem: `coin must be one of ${CHAIN_COINS.join(', ')}` };
  if (!isChainOf(coin, chain)) return { ok: false, problem: `${coin} does not move on ${chain}` };
  if (!isAddressOnChain(chain, address)) return { ok: false, problem: `not a valid ${chain} address: ${address}` };
  const canonical = canonicalAddress(chain, address);
  const at = (options.now ?? Date.now)();
  await writeTransaction(handleOf(db), async (trx) => {
    await withFunding(trx)
      .deleteFrom('deposit_addresses')
      .where('coin', '=', coin)
      .where('chain', '=', chain)
      .execute();
    await withFunding(trx)
      .insertInto('deposit_addresses')
      .values({ coin, chain, address: canonical, updated_at: at })
      .execute();
    await recordAudit(trx, {
      action: 'deposit_address.set',
      subjectType: 'deposit_address',
      subjectId: `${coin}/${chain}`,
      detail: { address: canonical },
      ...(options.operator ? { operator: options.operator } : {}),
      at,
    });
  });
  return { ok: true, address: canonical };
}

/** Sets the per-coin minimum deposit (whole), minimum withdrawal and withdrawal fee (decimal strings). */
export async function setFees(
  db: Kysely<Database>,
  coinRaw: string,
  minDeposit: string,
  minWithdraw: string,
  fee: string,
  options: { operator?: string; now?: () => number } = {},
): Promise<{ ok: true } | { ok: false; problem: string }> {
  const coin = coinRaw.trim().toUpperCase();
  if (!isChainCoin(coin)) return { ok: false, problem: `coin must be one of ${CHAIN_COINS.join(', ')}` };
  if (!/^\d+$/.test(minDeposit)) return { ok: false, problem: 'the minimum deposit is a whole amount' };
  const dep = parseAmount(coin, minDeposit);
  const wd = parseAmount(coin, minWithdraw);
  const zeroFee = /^0+(\.0+)?$/.test(fee.trim());
  const f = zeroFee ? ({ ok: true, units: 0 } as const) : parseAmount(coin, fee);
  if (!dep.ok) return { ok: false, problem: `minimum deposit: ${dep.error}` };
  if (!wd.ok) return { ok: false, problem: `minimum withdrawal: ${wd.error}` };
  if (!f.ok) return { ok: false, problem: `fee: ${f.error}` };
  const at = (options.now ?? Date.now)();
  await writeTransaction(handleOf(db), async (trx) => {
    await withFunding(trx)
      .updateTable('funding_coins')
      .set({ min_deposit: dep.units, min_withdraw: wd.units, withdraw_fee: f.units, updated_at: at })
      .where('coin', '=', coin)
      .execute();
    await recordAudit(trx, {
      action: 'fees.set',
      subjectType: 'funding_coin',
      subjectId: coin,
      detail: { min_deposit: minDeposit, min_withdraw: minWithdraw, withdraw_fee: fee },
      ...(options.operator ? { operator: options.operator } : {}),
      at,
    });
  });
  return { ok: true };
}

/** Sets the bank details shown for bank-transfer deposits. */
export async function setBankDetails(
  db: Kysely<Database>,
  text: string,
  options: { operator?: string; now?: () => number } = {},
): Promise<{ ok: true } | { ok: false; problem: string }> {
  const details = text.trim().replace(/[ \t]+/g, ' ');
  if (!details) return { ok: false, problem: 'the bank details are empty' };
  if (details.length > BANK_DETAILS_MAX) return { ok: false, problem: `longer than ${BANK_DETAILS_MAX} characters` };
  const at = (options.now ?? Date.now)();
  await writeTransaction(handleOf(db), async (trx) => {
    await trx.deleteFrom('platform_settings').where('key', '=', BANK_DETAILS_KEY).execute();
    await trx.insertInto('platform_settings').values({ key: BANK_DETAILS_KEY, value: details }).execute();
    await recordAudit(trx, {
      action: 'deposit_bank.set',
      subjectType: 'platform_setting',
      subjectId: BANK_DETAILS_KEY,
      detail: { details },
      ...(options.operator ? { operator: options.operator } : {}),
      at,
    });
  });
  return { ok: true };
}

/** `deposit-address list | set <coin> <chain> <address>`. */
export async function runDepositAddressCommand(
  args: readonly string[],
  db: Kysely<Database>,
  out: Out,
): Promise<number> {
  const [sub, coin, chain, address] = args;
  if (sub === 'list') {
    const rows = await withFunding(db)
      .selectFrom('deposit_addresses')
      .selectAll()
      .orderBy('coin')
      .orderBy('chain')
      .execute();
    if (rows.length === 0) out('no deposit addresses configured');
    for (const r of rows) out(`${r.coin.padEnd(5)} ${r.chain.padEnd(6)} ${r.address}`);
    return 0;
  }
  if (sub !== 'set' || !coin || !chain || !address) {
    out('usage: npm run ops -- deposit-address list | deposit-address set <coin> <chain> <address>');
    return 2;
  }
  const result = await setDepositAddress(db, coin, chain, address);
  if (!result.ok) {
    out(result.problem);
    return 1;
  }
  out(`deposit address of ${coin.toUpperCase()} on ${chain.toUpperCase()} is now ${result.address}`);
  return 0;
}

/** `deposit-bank show | set <details...>`. */
export async function runDepositBankCommand(args: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  const [sub, ...words] = args;
  if (sub === 'show') {
    const row = await db
      .selectFrom('platform_settings')
      .select('value')
      .where('key', '=', BANK_DETAILS_KEY)
      .executeTakeFirst();
    out(row?.value ?? 'no bank details configured');
    return 0;
  }
  if (sub !== 'set' || words.length === 0) {
    out('usage: npm run ops -- deposit-bank show | deposit-bank set <details...>');
    return 2;
  }
  const result = await setBankDetails(db, words.join(' '));
  if (!result.ok) {
    out(result.problem);
    return 1;
  }
  out('bank details for deposits saved');
  return 0;
}

/** `fees list | set <coin> <min_deposit> <min_withdraw> <withdraw_fee>`. */
export async function runFeesCommand(args: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  const [sub, coin, minDeposit, minWithdraw, fee] = args;
  if (sub === 'list') {
    const rows = await withFunding(db).selectFrom('funding_coins').selectAll().orderBy('coin').execute();
    for (const r of rows) {
      out(
        `${r.coin.padEnd(5)} min deposit ${formatAmount(r.coin, r.min_deposit)}  min withdrawal ${formatAmount(r.coin, r.min_withdraw)}  fee ${formatAmount(r.coin, r.withdraw_fee)}`,
      );
    }
    return 0;
  }
  if (sub !== 'set' || !coin || !minDeposit || !minWithdraw || !fee) {
    out('usage: npm run ops -- fees list | fees set <coin> <min_deposit> <min_withdraw> <withdraw_fee>');
    return 2;
  }
  const result = await setFees(db, coin, minDeposit, minWithdraw, fee);
  if (!result.ok) {
    out(result.problem);
    return 1;
  }
  out(`limits of ${coin.toUpperCase()} saved`);
  return 0;
}

/** The funding module's operator commands. */
export const fundingOps: OpsCommand[] = [
  {
    name: 'deposits',
    help: [
      ['deposits list', 'deposits waiting for review'],
      ['deposits approve <id>', "credit one to the user's coin account (seen live)"],
      ['deposits reject <id> <reason...>', 'reject one with a reason shown to the user'],
    ],
    run: (words, { db, out }) => runDepositsCommand(words, db, out),
  },
  {
    name: 'withdrawals',
    help: [
      ['withdrawals list', 'withdrawals waiting for review'],
      ['withdrawals approve <id>', 'pay one out (frozen amount and fee leave the account)'],
      ['withdrawals reject <id> <reason...>', 'reject one; the frozen amount is released'],
    ],
    run: (words, { db, out }) => runWithdrawalsCommand(words, db, out),
  },
  {
    name: 'deposit-address',
    help: [
      ['deposit-address list | set <coin> <chain> <address>', "the platform's receiving address per coin and chain"],
    ],
    run: (words, { db, out }) => runDepositAddressCommand(words, db, out),
  },
  {
    name: 'deposit-bank',
    help: [['deposit-bank show | set <details...>', 'the bank details shown for bank-transfer deposits']],
    run: (words, { db, out }) => runDepositBankCommand(words, db, out),
  },
  {
    name: 'fees',
    help: [
      ['fees list | set <coin> <min_deposit> <min_withdraw> <withdraw_fee>', 'per-coin minimums and withdrawal fee'],
    ],
    run: (words, { db, out }) => runFeesCommand(words, db, out),
  },
];
