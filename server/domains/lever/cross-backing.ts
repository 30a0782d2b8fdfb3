import type { Kysely } from 'kysely';
import { type CrossBackedPosition, crossMarginBacked, crossMarginFree } from '../../../protocol/rules/lever';
import { currencyScale, type LedgerBook, withLedger } from '../../ledger';
import type { DialectKind } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
import { priceUnits, unitsOf } from './positions';
import { withLever } from './tables';
import { LEVER_QUOTE } from './terms';

/**
 * RULES "Cross margin": money that backs cross positions stays. Whatever takes money out of a contract account's
 * cross wallet (a transfer out, an open that pays a fee and holds a new margin) checks the rule inside its own write
 * transaction, after locking the contract account's ledger row: the row every ledger change of that account locks
 * too (SELECT … FOR UPDATE on PostgreSQL; on SQLite the transaction already holds the one write lock). So a transfer
 * and an open of one account are serialized, and each judges the balance and the open positions the other left.
 */

const QUOTE_SCALE = currencyScale(LEVER_QUOTE);

/** The latest mark of an instrument, as price text of its step; undefined while there is none. */
export type MarkOf = (symbol: string) => string | undefined;

/** A cross wallet under lock: the contract account's available balance, and its open cross positions at their marks. */
export interface CrossBacking {
  /** The contract account's available balance (balance − held), quote units. */
  available: bigint;
  /** The cross wallet: available plus the margins its open cross positions hold. */
  wallet: bigint;
  positions: CrossBackedPosition[];
  /** An open cross position has no mark yet: its P&L, and so the equity, cannot be known. */
  unpriced: boolean;
}

/**
 * Locks the user's contract account of `book` and reads its cross wallet and open (holding or closing) cross
 * positions at their marks. Call it inside a write transaction, before the ledger change it guards; lock order
 * (PostgreSQL): a caller that also moves another account of the user locks both in id order first (the ledger's
 * order), this lock then finds its row already held.
 */
export const lockCrossBacking = (
  trx: Kysely<Database>,
  kind: DialectKind,
  userId: number,
  book: LedgerBook,
  markOf: MarkOf,
): Promise<CrossBacking> => readCrossBacking(trx, kind === 'postgres', userId, book, markOf);

async function readCrossBacking(
  trx: Kysely<Database>,
  lock: boolean,
  userId: number,
  book: LedgerBook,
  markOf: MarkOf,
): Promise<CrossBacking> {
  const account = await withLedger(trx)
    .selectFrom('ledger_accounts')
    .select(['balance', 'held'])
    .where('user_id', '=', userId)
    .where('book', '=', book)
    .where('type', '=', 'contract')
    .where('currency', '=', LEVER_QUOTE)
    .$if(lock, (qb) => qb.forUpdate())
    .executeTakeFirst();
  const available = account ? BigInt(account.balance) - BigInt(account.held) : 0n;
  const rows = await withLever(trx)
    .selectFrom('lever_positions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('book', '=', book)
    .where('margin_mode', '=', 'cross')
    .where('phase', 'in', ['holding', 'closing'])
    .orderBy('id')
    .execute();
  let wallet = available;
  let unpriced = false;
  const positions: CrossBackedPosition[] = [];
  for (const row of rows) {
    wallet += BigInt(row.margin ?? 0) + BigInt(row.added_margin);
    const mark = markOf(row.symbol);
    if (mark === undefined) {
      unpriced = true;
      continue;
    }
    const { side, lots, entry, terms } = unitsOf(row);
    positions.push({ side, lots, entry, terms, leverage: row.leverage, mark: priceUnits(row, mark) });
  }
  return { available, wallet, positions, unpriced };
}

/**
 * Refuses `amount` (quote units) leaving the contract account when it would leave the equity of its cross positions
 * below their initial margin (`crossMarginBacked`), or when an open cross position has no mark to judge by. An
 * amount beyond the available balance is left to the ledger (insufficientBalance), so a plain overdraft keeps its
 * own message. Call under the lock of `lockCrossBacking`, in the transaction that then moves the money.
 */
export async function refuseBackedCrossMargin(
  trx: Kysely<Database>,
  kind: DialectKind,
  userId: number,
  book: LedgerBook,
  amount: bigint,
  markOf: MarkOf,
): Promise<void> {
  const backing = await lockCrossBacking(trx, kind, userId, book, markOf);
  if (amount > backing.available) return;
  if (backing.unpriced) throw new BusinessError('crossMarginUnpriced', { field: 'amount' });
  if (crossMarginBacked(backing.wallet, amount, QUOTE_SCALE, backing.positions)) {
    throw new BusinessError('crossMarginBacked', { field: 'amount' });
  }
}

/**
 * The most that may leave the contract account (quote units): the available balance, less what backs its cross
 * positions (`crossMarginFree`, never below 0), and 0 while a cross position has no mark (such a transfer is
 * refused). An amount up to it passes `refuseBackedCrossMargin` at the same marks and balances, one unit more does
 * not, so the transfer page can offer exactly it.
 */
export function mayLeaveContract(backing: CrossBacking): bigint {
  if (backing.unpriced) return 0n;
  if (backing.positions.length === 0) return backing.available;
  const free = crossMarginFree(backing.wallet, QUOTE_SCALE, backing.positions);
  if (free < 0n) return 0n;
  return free < backing.available ? free : backing.available;
}

/**
 * `mayLeaveContract` of the user's contract account in `book` right now, read without a lock: what the transfer page
 * shows. The transfer itself judges again under its lock, so a mark that moved in between is still caught there.
 */
export async function contractTransferable(
  db: Kysely<Database>,
  userId: number,
  book: LedgerBook,
  markOf: MarkOf,
): Promise<bigint> {
  return mayLeaveContract(await readCrossBacking(db, false, userId, book, markOf));
}
