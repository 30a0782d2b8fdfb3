import { sql } from 'kysely';
import { SIMULATOR_CURRENCY, SIMULATOR_FUNDS, type SimulatorBalance } from '../../protocol/simulator';
import { formatAmount, type Ledger, parseAmount, withLedger } from '../ledger';
import type { DatabaseHandle } from '../platform/db/connect';
import { writeTransaction } from '../platform/db/transaction';

/**
 * The simulators' practice funds (RULES "Simulator book"): 10,000 USDT in the user's account of the simulator book
 * that the product trades from (option for options, contract for lever), granted on first use from the simulator
 * platform account, and reset to 10,000 available at any time by a ledger entry. Nothing moves between the simulator
 * book and the real one: every entry here names the simulator book on both sides.
 */

/** The account a simulator trades from. */
export type PracticeAccount = 'option' | 'contract';

const fundsUnits = (): number => {
  const parsed = parseAmount(SIMULATOR_CURRENCY, SIMULATOR_FUNDS);
  if (!parsed.ok) throw new Error('the practice funds are not an amount');
  return parsed.units;
};

/** The one grant per user and account: its request id makes a repeat (or a race) apply once. */
const GRANT_ID: Record<PracticeAccount, string> = {
  option: 'options-practice-grant',
  contract: 'lever-practice-grant',
};
const RESET_PREFIX: Record<PracticeAccount, string> = {
  option: 'options-practice-reset',
  contract: 'lever-practice-reset',
};

async function available(
  ledger: Ledger,
  userId: number,
  type: PracticeAccount,
): Promise<{ balance: number; held: number }> {
  const row = (await ledger.balances(userId, 'simulator')).find(
    (b) => b.type === type && b.currency === SIMULATOR_CURRENCY,
  );
  return { balance: row?.balance ?? 0, held: row?.held ?? 0 };
}

/** Grants the practice funds on first use (a no-op afterwards); returns what is available. */
export async function practiceBalance(
  ledger: Ledger,
  userId: number,
  type: PracticeAccount,
): Promise<SimulatorBalance> {
  // Reading the balance is the common case: look for the grant before asking the ledger to write it.
  const granted = await withLedger(ledger.database)
    .selectFrom('ledger_entries')
    .select('id')
    .where('user_id', '=', userId)
    .where('request_id', '=', GRANT_ID[type])
    .executeTakeFirst();
  if (!granted) await grant(ledger, userId, type);
  const { balance, held } = await available(ledger, userId, type);
  return { currency: SIMULATOR_CURRENCY, balance: formatAmount(SIMULATOR_CURRENCY, balance - held) };
}

/** The grant itself: its request id makes a race of two first uses apply once. */
async function grant(ledger: Ledger, userId: number, type: PracticeAccount): Promise<void> {
  await ledger.credit({
    userId,
    requestId: GRANT_ID[type],
    kind: 'simulator_grant',
    book: 'simulator',
    currency: SIMULATOR_CURRENCY,
    amount: fundsUnits(),
    from: 'simulator_funding',
    to: type,
  });
}

/**
 * Puts the available practice funds back to 10,000 (stakes of running practice contracts stay held and settle as
 * usual). One entry for the difference, inside a transaction that first locks the user's row, so two resets at once
 * cannot both add the same difference.
 */
export async function resetPractice(
  database: DatabaseHandle,
  ledger: Ledger,
  userId: number,
  type: PracticeAccount,
  now: () => number,
) {
  await practiceBalance(ledger, userId, type);
  await writeTransaction(database, async (trx) => {
    if (database.kind === 'postgres') await sql`select id from users where id = ${userId} for update`.execute(trx);
    const book = ledger.within(trx);
    const { balance, held } = await available(book, userId, type);
    const diff = fundsUnits() - (balance - held);
    if (diff === 0) return;
    const requestId = `${RESET_PREFIX[type]}:${now()}:${balance}`;
    if (diff > 0) {
      await book.credit({
        userId,
        requestId,
        kind: 'simulator_reset',
        book: 'simulator',
        currency: SIMULATOR_CURRENCY,
        amount: diff,
        from: 'simulator_funding',
        to: type,
      });
    } else {
      await book.debit({
        userId,
        requestId,
        kind: 'simulator_reset',
        book: 'simulator',
        currency: SIMULATOR_CURRENCY,
        amount: -diff,
        from: type,
        to: 'simulator_funding',
      });
    }
  });
  return practiceBalance(ledger, userId, type);
}
