import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { FINANCE_FAMILIES, type FinanceFamily } from '../../../protocol/finance';
import { DEFAULT_PENALTY, type PenaltyRule } from '../../../protocol/rules/finance';
import { formatAmount, isCurrency, Ledger, parseAmount, platformPrincipalId, withLedger } from '../../ledger';
import { recordAudit } from '../../platform/audit';
import { handleOf } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import type { OpsCommand, Out } from '../../platform/ops/commands';
import { accrueFinance } from './accrual';
import { freeReserve, productWire } from './products';
import { withFinance } from './tables';

const USAGE = [
  'usage: npm run ops -- finance products',
  '       finance add <trust|hosting> <currency> <cycle days> <daily rate> <min> <max> <name ...>',
  '       finance penalty <id> <ratio|interest_multiple> <value>',
  '       finance sell <id> | finance stop <id> | finance recommend <id> <on|off>',
  '       finance fund <currency> <amount> | finance reserve | finance accrue',
].join('\n');

const RATE_RE = /^0\.\d{1,8}$/;

/** A change of one product and its audit record, in one transaction; orders keep the terms they were bought under. */
async function changeProduct(
  db: Kysely<Database>,
  id: number,
  action: string,
  set: Partial<{ on_sale: number; recommended: number; penalty_kind: PenaltyRule['kind']; penalty_value: string }>,
  out: Out,
): Promise<number> {
  return writeTransaction(handleOf(db), async (trx) => {
    const before = await withFinance(trx)
      .selectFrom('finance_products')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!before) {
      out(`no finance product ${id}`);
      return 1;
    }
    await withFinance(trx)
      .updateTable('finance_products')
      .set({ ...set, updated_at: Date.now() })
      .where('id', '=', id)
      .execute();
    await recordAudit(trx, { action, subjectType: 'finance_product', subjectId: id, detail: { before, set } });
    out(`finance product ${id} changed (${action}); running orders keep their terms`);
    return 0;
  });
}

function penaltyProblem(kind: string, value: string): string | null {
  if (kind !== 'ratio' && kind !== 'interest_multiple') return 'the penalty kind is ratio or interest_multiple';
  if (!/^\d{1,4}(\.\d{1,8})?$/.test(value)) return `bad penalty value: ${value}`;
  return null;
}

async function addProduct(db: Kysely<Database>, words: readonly string[], out: Out): Promise<number> {
  const [family, rawCurrency, cycle, rate, min, max, ...nameWords] = words;
  const currency = (rawCurrency ?? '').toUpperCase();
  const name = nameWords.join(' ').trim();
  if (!(FINANCE_FAMILIES as readonly string[]).includes(family ?? '')) return refuse(out, 'family: trust or hosting');
  if (!isCurrency(currency)) return refuse(out, `not a ledger currency: ${rawCurrency}`);
  if (!/^\d{1,4}$/.test(cycle ?? '') || Number(cycle) < 1) return refuse(out, `bad cycle: ${cycle}`);
  if (!RATE_RE.test(rate ?? '') || /^0\.0+$/.test(rate ?? '')) return refuse(out, `bad daily rate: ${rate}`);
  const minUnits = parseAmount(currency, min ?? '');
  const maxUnits = parseAmount(currency, max ?? '');
  if (!minUnits.ok || !maxUnits.ok || maxUnits.units < minUnits.units) return refuse(out, 'bad min/max amounts');
  if (name === '' || name.length > 64) return refuse(out, 'a name of 1 to 64 characters');
  const at = Date.now();
  return writeTransaction(handleOf(db), async (trx) => {
    const row = await withFinance(trx)
      .insertInto('finance_products')
      .values({
        family: family as FinanceFamily,
        name,
        currency,
        cycle_days: Number(cycle),
        daily_rate: rate ?? '',
        min_amount: minUnits.units,
        max_amount: maxUnits.units,
        penalty_kind: DEFAULT_PENALTY.kind,
        penalty_value: DEFAULT_PENALTY.value,
        on_sale: 1,
        recommended: 0,
        created_at: at,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      action: 'finance_product.add',
      subjectType: 'finance_product',
      subjectId: row.id,
      detail: row,
    });
    out(`finance product ${row.id} added: ${name}`);
    return 0;
  });
}

function refuse(out: Out, problem: string): number {
  out(problem);
  return 1;
}

/** Funds the reserve from the operator's capital: a platform-only ledger entry, audited in the same transaction. */
async function fundReserve(db: Kysely<Database>, rawCurrency: string, amount: string, out: Out): Promise<number> {
  const currency = rawCurrency.toUpperCase();
  const parsed = parseAmount(currency, amount);
  if (!parsed.ok) return refuse(out, `bad amount: ${parsed.error}`);
  const handle = handleOf(db);
  const principal = await platformPrincipalId(db);
  const requestId = `finance-fund:${randomUUID()}`;
  await writeTransaction(handle, async (trx) => {
    const receipt = await new Ledger(handle).within(trx).post({
      userId: principal,
      requestId,
      kind: 'adjustment',
      legs: [
        { owner: { platform: 'operator_capital' }, currency, amount: -parsed.units },
        { owner: { platform: 'finance_reserve' }, currency, amount: parsed.units },
      ],
    });
    await recordAudit(trx, {
      action: 'finance_reserve.fund',
      subjectType: 'ledger_entry',
      subjectId: receipt.entryId,
      detail: { currency, amount: formatAmount(currency, parsed.units) },
    });
  });
  out(`finance reserve ${currency} funded with ${formatAmount(currency, parsed.units)}`);
  return 0;
}

/**
 * The reserve of each currency: free, promised to running orders, and the check that `finance_yield` holds exactly
 * the unpaid yield of every running order (exit 1 when it does not).
 */
async function showReserve(db: Kysely<Database>, out: Out): Promise<number> {
  const accounts = await withLedger(db)
    .selectFrom('ledger_accounts')
    .select(['type', 'currency', 'balance'])
    .where('user_id', 'is', null)
    .where('book', '=', 'real')
    .where('type', 'in', ['finance_reserve', 'finance_yield'])
    .execute();
  const owed = await withFinance(db)
    .selectFrom('finance_orders')
    .select(['currency', 'daily_interest', 'cycle_days', 'days_paid'])
    .where('state', '=', 'hosting')
    .execute();
  const currencies = new Set([...accounts.map((a) => a.currency), ...owed.map((o) => o.currency)]);
  let problems = 0;
  for (const currency of [...currencies].sort()) {
    const balance = (type: string) => accounts.find((a) => a.type === type && a.currency === currency)?.balance ?? 0;
    const promised = owed
      .filter((o) => o.currency === currency)
      .reduce((sum, o) => sum + BigInt(o.daily_interest) * BigInt(o.cycle_days - o.days_paid), 0n);
    const held = BigInt(balance('finance_yield'));
    const ok = held === promised;
    if (!ok) problems += 1;
    out(
      `${currency}: free ${formatAmount(currency, balance('finance_reserve'))}  promised ${formatAmount(currency, held)}` +
        `  running orders owe ${formatAmount(currency, promised)}  ${ok ? 'covered' : 'MISMATCH'}`,
    );
  }
  if (currencies.size === 0) out('no finance reserve yet');
  return problems === 0 ? 0 : 1;
}

async function listAll(db: Kysely<Database>, out: Out): Promise<number> {
  const rows = await withFinance(db).selectFrom('finance_products').selectAll().orderBy('id').execute();
  if (rows.length === 0) out('no finance products');
  for (const row of rows) {
    const p = productWire(row, await freeReserve(db, row.currency));
    out(
      `${String(p.id).padStart(4)} ${p.family.padEnd(7)} ${p.currency.padEnd(5)} ${String(p.cycle_days).padStart(4)} d` +
        `  daily ${p.daily_rate} (APR ${p.apr})  min ${p.min_amount} max ${p.max_amount}` +
        `  penalty ${p.penalty.kind} ${p.penalty.value}  capacity ${p.capacity}` +
        `${row.on_sale ? '' : '  STOPPED'}${p.recommended ? '  recommended' : ''}  ${p.name}`,
    );
  }
  return 0;
}

/**
 * `finance ...`: products for future orders, the reserve that funds their yield, and running the accrual now. There
 * is deliberately no command that changes an order or pays anything but what the rule says is due now.
 */
export async function runFinanceCommand(args: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  const [sub, a, b, c] = args;
  const id = a && /^\d{1,10}$/.test(a) ? Number(a) : Number.NaN;
  switch (sub) {
    case undefined:
    case 'products':
      return listAll(db, out);
    case 'add':
      return addProduct(db, args.slice(1), out);
    case 'reserve':
      return showReserve(db, out);
    case 'fund':
      if (a && b) return fundReserve(db, a, b, out);
      break;
    case 'accrue': {
      const handle = handleOf(db);
      const r = await accrueFinance({ database: handle, ledger: new Ledger(handle), now: Date.now });
      out(`accrual: ${r.orders} orders paid ${r.days} days; ${r.completed} completed`);
      return 0;
    }
    case 'sell':
    case 'stop':
      if (Number.isSafeInteger(id)) {
        return changeProduct(db, id, `finance_product.${sub}`, { on_sale: sub === 'sell' ? 1 : 0 }, out);
      }
      break;
    case 'recommend':
      if (Number.isSafeInteger(id) && (b === 'on' || b === 'off')) {
        return changeProduct(db, id, 'finance_product.recommend', { recommended: b === 'on' ? 1 : 0 }, out);
      }
      break;
    case 'penalty': {
      const problem = b && c ? penaltyProblem(b, c) : 'penalty <id> <kind> <value>';
      if (problem) return refuse(out, problem);
      if (Number.isSafeInteger(id)) {
        return changeProduct(
          db,
          id,
          'finance_product.penalty',
          { penalty_kind: b as PenaltyRule['kind'], penalty_value: c ?? '' },
          out,
        );
      }
      break;
    }
  }
  out(USAGE);
  return 2;
}

export const financeOps: OpsCommand[] = [
  {
    name: 'finance',
    help: [
      ['finance products', 'every product with its terms and what it can sell now'],
      ['finance add <family> <cur> <days> <rate> <min> <max> <name>', 'a new product (trust or hosting)'],
      ['finance penalty <id> <ratio|interest_multiple> <value>', 'the early-redemption rule for future orders'],
      ['finance sell|stop <id>', 'start or stop selling a product'],
      ['finance recommend <id> on|off', 'list it in lh/send/get_recommend'],
      ['finance fund <currency> <amount>', 'fund the yield reserve from operator capital'],
      ['finance reserve', 'free and promised reserve, checked against the running orders'],
      ['finance accrue', 'pay the interest due now (the job does this every minute)'],
    ],
    run: (words, { db, out }) => runFinanceCommand(words, db, out),
  },
];
