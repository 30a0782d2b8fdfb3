import { type Kysely, sql } from 'kysely';
import type { Database } from '../platform/db/schema';
import { snapshotTransaction } from '../platform/db/transaction';
import type { LedgerAccountType, LedgerBook } from './accounts';
import { formatAmount, isCurrency } from './amounts';
import { withLedger } from './tables';

/**
 * The ledger audit (`npm run ops -- ledger check`, and the tests' invariant): recomputes every balance from the
 * postings and every held amount from the open holds, on one snapshot, and lists each difference. Sums are read
 * as text and added as BigInt, so a corrupted balance beyond 2^53 is reported, not rounded away.
 */

export type LedgerProblem =
  | { kind: 'balanceMismatch'; accountId: number; stored: bigint; computed: bigint }
  | { kind: 'heldMismatch'; accountId: number; stored: bigint; openHolds: bigint }
  | { kind: 'negativeAvailable'; accountId: number; balance: bigint; held: bigint }
  | { kind: 'currencyUnbalanced'; book: string; currency: string; sum: bigint }
  | { kind: 'entryUnbalanced'; entryId: number; book: string; currency: string; sum: bigint }
  | { kind: 'holdStateInvalid'; holdId: number; state: string };

/** Per book and currency: what all postings add up to (zero when sound), what accounts hold, what open holds sum to. */
export interface CurrencyTotals {
  book: LedgerBook;
  currency: string;
  postingSum: bigint;
  held: bigint;
  openHolds: bigint;
}

export interface LedgerReport {
  accounts: number;
  postings: number;
  openHolds: number;
  currencies: CurrencyTotals[];
  problems: LedgerProblem[];
}

interface AccountFacts {
  id: number;
  user_id: number | null;
  book: LedgerBook;
  type: LedgerAccountType;
  currency: string;
  balance: string;
  held: string;
}

export async function checkLedger(db: Kysely<Database>): Promise<LedgerReport> {
  return snapshotTransaction(db, async (trx) => {
    const accounts = await withLedger(trx)
      .selectFrom('ledger_accounts')
      .select([
        'id',
        'user_id',
        'book',
        'type',
        'currency',
        sql<string>`cast(balance as text)`.as('balance'),
        sql<string>`cast(held as text)`.as('held'),
      ])
      .orderBy('id')
      .execute();
    const postingSums = await withLedger(trx)
      .selectFrom('ledger_postings')
      .select(['account_id', sql<string>`cast(sum(amount) as text)`.as('total'), sql<string>`count(*)`.as('n')])
      .groupBy('account_id')
      .execute();
    const holdSums = await withLedger(trx)
      .selectFrom('ledger_holds')
      .select(['account_id', sql<string>`cast(sum(amount) as text)`.as('total'), sql<string>`count(*)`.as('n')])
      .where('state', '=', 'open')
      .groupBy('account_id')
      .execute();
    // Per-account sums can hide two wrong entries that cancel out; each entry must balance on its own too.
    const unbalanced = await withLedger(trx)
      .selectFrom('ledger_postings as p')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .select(['p.entry_id', 'a.book', 'a.currency', sql<string>`cast(sum(p.amount) as text)`.as('total')])
      .groupBy(['p.entry_id', 'a.book', 'a.currency'])
      .having(sql`sum(p.amount)`, '<>', 0)
      .orderBy('p.entry_id')
      .limit(1000)
      .execute();
    const badHolds = await withLedger(trx)
      .selectFrom('ledger_holds')
      .select(['id', 'state'])
      .where((eb) =>
        eb.or([
          eb.and([
            eb('state', '=', 'open'),
            eb.or([eb('resolved_entry_id', 'is not', null), eb('resolved_at', 'is not', null)]),
          ]),
          eb.and([
            eb('state', '<>', 'open'),
            eb.or([eb('resolved_entry_id', 'is', null), eb('resolved_at', 'is', null)]),
          ]),
        ]),
      )
      .orderBy('id')
      .execute();
    return audit(accounts, postingSums, holdSums, unbalanced, badHolds);
  });
}

function audit(
  accounts: readonly AccountFacts[],
  postingSums: ReadonlyArray<{ account_id: number; total: string; n: string | number }>,
  holdSums: ReadonlyArray<{ account_id: number; total: string; n: string | number }>,
  unbalanced: ReadonlyArray<{ entry_id: number; book: string; currency: string; total: string }>,
  badHolds: ReadonlyArray<{ id: number; state: string }>,
): LedgerReport {
  const computed = new Map(postingSums.map((row) => [row.account_id, BigInt(row.total)]));
  const openHeld = new Map(holdSums.map((row) => [row.account_id, BigInt(row.total)]));
  const problems: LedgerProblem[] = [];
  const totals = new Map<string, CurrencyTotals>();
  const known = new Set<number>();
  for (const account of accounts) {
    known.add(account.id);
    const balance = BigInt(account.balance);
    const held = BigInt(account.held);
    const fromPostings = computed.get(account.id) ?? 0n;
    const fromHolds = openHeld.get(account.id) ?? 0n;
    if (balance !== fromPostings) {
      problems.push({ kind: 'balanceMismatch', accountId: account.id, stored: balance, computed: fromPostings });
    }
    if (held !== fromHolds) {
      problems.push({ kind: 'heldMismatch', accountId: account.id, stored: held, openHolds: fromHolds });
    }
    if (account.user_id !== null && balance - held < 0n) {
      problems.push({ kind: 'negativeAvailable', accountId: account.id, balance, held });
    }
    const key = `${account.book}/${account.currency}`;
    const sum = totals.get(key) ?? {
      book: account.book,
      currency: account.currency,
      postingSum: 0n,
      held: 0n,
      openHolds: 0n,
    };
    sum.postingSum += fromPostings;
    sum.held += held;
    sum.openHolds += fromHolds;
    totals.set(key, sum);
  }
  // Foreign keys make these impossible; counted anyway so a broken constraint cannot hide money.
  for (const [accountId, total] of computed) {
    if (!known.has(accountId)) problems.push({ kind: 'balanceMismatch', accountId, stored: 0n, computed: total });
  }
  const currencies = [...totals.values()].sort(
    (a, b) => a.book.localeCompare(b.book) || a.currency.localeCompare(b.currency),
  );
  for (const total of currencies) {
    if (total.postingSum !== 0n) {
      problems.push({ kind: 'currencyUnbalanced', book: total.book, currency: total.currency, sum: total.postingSum });
    }
  }
  for (const row of unbalanced) {
    problems.push({
      kind: 'entryUnbalanced',
      entryId: row.entry_id,
      book: row.book,
      currency: row.currency,
      sum: BigInt(row.total),
    });
  }
  for (const hold of badHolds) problems.push({ kind: 'holdStateInvalid', holdId: hold.id, state: hold.state });
  const count = (rows: ReadonlyArray<{ n: string | number }>) => rows.reduce((n, row) => n + Number(row.n), 0);
  return {
    accounts: accounts.length,
    postings: count(postingSums),
    openHolds: count(holdSums),
    currencies,
    problems,
  };
}

/** A report's problems as lines for a person (the ops command, and test failure messages). Empty when sound. */
export const describeProblems = (report: LedgerReport): string[] => report.problems.map(describeProblem);

function describeProblem(p: LedgerProblem): string {
  switch (p.kind) {
    case 'balanceMismatch':
      return `account ${p.accountId}: balance ${p.stored} but postings sum to ${p.computed}`;
    case 'heldMismatch':
      return `account ${p.accountId}: held ${p.stored} but open holds sum to ${p.openHolds}`;
    case 'negativeAvailable':
      return `account ${p.accountId}: available below zero (balance ${p.balance}, held ${p.held})`;
    case 'currencyUnbalanced':
      return `${p.book} ${p.currency}: postings sum to ${p.sum}, not 0`;
    case 'entryUnbalanced':
      return `entry ${p.entryId}: ${p.book} ${p.currency} postings sum to ${p.sum}, not 0`;
    case 'holdStateInvalid':
      return `hold ${p.holdId}: state ${p.state} does not match its resolution`;
  }
}

/** The per-currency table of a report, amounts as decimals of each currency. */
export function describeTotals(report: LedgerReport): string[] {
  const amount = (currency: string, units: bigint) =>
    isCurrency(currency) ? formatAmount(currency, units) : `${units}`;
  return [
    `${'book'.padEnd(10)} ${'currency'.padEnd(8)} ${'postings sum'.padStart(20)} ${'held'.padStart(24)} ${'open holds'.padStart(24)}`,
    ...report.currencies.map(
      (t) =>
        `${t.book.padEnd(10)} ${t.currency.padEnd(8)} ${amount(t.currency, t.postingSum).padStart(20)} ` +
        `${amount(t.currency, t.held).padStart(24)} ${amount(t.currency, t.openHolds).padStart(24)}`,
    ),
  ];
}
