import {
  ACCOUNT_TYPES,
  type AccountSummary,
  type AccountType,
  type BalanceRow,
  isAccountType,
  type LedgerLine,
  type PriceSource,
  type TransferReceipt,
  type TransferRecord,
  VALUATION_CURRENCY,
  type WalletDetail,
  type WalletList,
} from '../../../protocol/wallet';
import type { HistoryRow, Ledger, Receipt, TransferRequest } from '../../ledger';
import {
  CURRENCY_SCALES,
  currencyScale,
  formatAmount,
  isCurrency,
  type LedgerFields,
  ledgerEdge,
  parseAmount,
  withLedger,
} from '../../ledger';
import type { MarketFeed } from '../../market';
import type { DatabaseHandle } from '../../platform/db/connect';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { confirmClaimedRequest } from '../../platform/request-ids';
import type { AccountGuard } from '../contract';
import { formatValue, valueAt } from './valuation';

export interface WalletServices {
  ledger: Ledger;
  /** The market feed whose last prices value the balances; without one only USDT has a value. */
  feed: Pick<MarketFeed, 'quote'> | undefined;
  database: DatabaseHandle;
  /** What other domains hold against money in an account (lever: cross margin in the contract account). */
  guards: readonly AccountGuard[];
}

/** Everything on the assets pages is the real book; the simulators' practice money has its own pages. */
const BOOK = 'real';
/** How many recent changes wallet/detail shows. */
const DETAIL_HISTORY = 20;

/** The request field each ledger refusal is about, so the form can mark it. */
const TRANSFER_FIELDS: LedgerFields = {
  currencyUnsupported: 'currency',
  amountRequired: 'amount',
  amountInvalid: 'amount',
  amountNotPositive: 'amount',
  amountTooPrecise: 'amount',
  amountTooLarge: 'amount',
  insufficientBalance: 'amount',
  accountTypeInvalid: 'from',
  transferSameAccount: 'to',
};

interface Price {
  price: string | null;
  ts: number | null;
  source: PriceSource;
}

/** The USDT price of one unit of `currency`: 1 for USDT itself, else the feed's last trade price (none without a quote). */
function priceOf(s: WalletServices, currency: string): Price {
  if (currency === VALUATION_CURRENCY) return { price: '1', ts: null, source: 'fixed' };
  // Stablecoins are quoted in USD; one USD is taken as one USDT, the same convention as USDT's own fixed price.
  const quote = s.feed?.quote(currency);
  return quote ? { price: quote.last, ts: quote.ts, source: 'last' } : { price: null, ts: null, source: 'none' };
}

interface Held {
  balance: number;
  held: number;
}

/** The user's real-book accounts by `type/currency`. */
async function heldBalances(s: WalletServices, userId: number): Promise<Map<string, Held>> {
  const rows = await s.ledger.balances(userId, BOOK);
  return new Map(rows.map((r) => [`${r.type}/${r.currency}`, { balance: r.balance, held: r.held }]));
}

function amounts(currency: string, held: Held | undefined) {
  const balance = held?.balance ?? 0;
  const frozen = held?.held ?? 0;
  return {
    available: formatAmount(currency, balance - frozen),
    frozen: formatAmount(currency, frozen),
    total: formatAmount(currency, balance),
  };
}

/** Tracks the newest quote a valuation used, for its price basis. */
class Basis {
  pricedAt: number | null = null;
  use(price: Price): void {
    if (price.ts !== null && (this.pricedAt === null || price.ts > this.pricedAt)) this.pricedAt = price.ts;
  }
  get value() {
    return { kind: 'last' as const, quote: VALUATION_CURRENCY, priced_at: this.pricedAt };
  }
}

/** wallet/list: per account type every ledger currency (zeros included), valued at last prices, with totals. */
export async function listAssets(s: WalletServices, userId: number, only?: AccountType): Promise<WalletList> {
  const balances = await heldBalances(s, userId);
  // What may leave each guarded account, at the same rule and marks as a transfer out of it.
  const free = new Map<string, bigint>();
  for (const guard of s.guards) {
    if (only && only !== guard.type) continue;
    const markOf = (symbol: string) => s.feed?.quote(symbol)?.last;
    free.set(`${guard.type}/${guard.currency}`, await guard.transferable(s.database.db, userId, BOOK, markOf));
  }
  const prices = new Map([...CURRENCY_SCALES.keys()].map((c) => [c, priceOf(s, c)]));
  const basis = new Basis();
  let grand = 0n;
  let someUnpriced = false;
  const accounts: AccountSummary[] = [];
  for (const type of ACCOUNT_TYPES) {
    if (only && type !== only) continue;
    let sum = 0n;
    let unpriced = false;
    const rows: BalanceRow[] = [];
    for (const [currency, scale] of CURRENCY_SCALES) {
      const held = balances.get(`${type}/${currency}`);
      const price = prices.get(currency) ?? { price: null, ts: null, source: 'none' as const };
      let value = 0n;
      if (held && held.balance !== 0) {
        if (price.price === null) unpriced = true;
        else {
          value = valueAt(held.balance, scale, price.price);
          basis.use(price);
        }
      }
      sum += value;
      const balance = amounts(currency, held);
      const guarded = free.get(`${type}/${currency}`);
      rows.push({
        currency,
        scale,
        ...balance,
        price: price.price,
        price_ts: price.ts,
        price_source: price.source,
        valuation: formatValue(value),
        // The page can offer exactly what a transfer out of the account would let leave.
        transferable: guarded === undefined ? balance.available : formatAmount(currency, guarded),
      });
    }
    grand += sum;
    someUnpriced ||= unpriced;
    accounts.push({ type, valuation: formatValue(sum), unpriced, rows });
  }
  return { basis: basis.value, valuation: formatValue(grand), unpriced: someUnpriced, accounts };
}

const toLine = (row: HistoryRow): LedgerLine | null =>
  isAccountType(row.type)
    ? {
        id: row.postingId,
        entry_id: row.entryId,
        kind: row.kind,
        type: row.type,
        currency: row.currency,
        amount: formatAmount(row.currency, row.amount),
        created_at: row.createdAt,
      }
    : null;

function checkCurrency(currency: string): void {
  if (!isCurrency(currency)) throw new BusinessError('currencyUnsupported', { field: 'currency' });
}

/** wallet/detail: one currency in every account type, its price and its latest changes (of one type when given). */
export async function assetDetail(
  s: WalletServices,
  userId: number,
  currency: string,
  type?: AccountType,
): Promise<WalletDetail> {
  checkCurrency(currency);
  const scale = currencyScale(currency);
  const balances = await heldBalances(s, userId);
  const price = priceOf(s, currency);
  const basis = new Basis();
  let total = 0;
  const accounts = ACCOUNT_TYPES.map((t) => {
    const held = balances.get(`${t}/${currency}`);
    total += held?.balance ?? 0;
    const value = price.price !== null && held ? valueAt(held.balance, scale, price.price) : 0n;
    return { type: t, ...amounts(currency, held), valuation: formatValue(value) };
  });
  basis.use(price);
  const history = await s.ledger.history(userId, {
    book: BOOK,
    currency,
    ...(type ? { type } : {}),
    limit: DETAIL_HISTORY,
  });
  return {
    currency,
    scale,
    basis: basis.value,
    price: price.price,
    price_source: price.source,
    total: formatAmount(currency, total),
    valuation: formatValue(price.price !== null ? valueAt(total, scale, price.price) : 0n),
    accounts,
    history: history.flatMap((row) => toLine(row) ?? []),
  };
}

/** wallet/legal_log: the user's postings, newest first, a page at a time. */
export async function ledgerLog(
  s: WalletServices,
  userId: number,
  filter: {
    limit: number;
    beforeId?: number | undefined;
    type?: AccountType | undefined;
    currency?: string | undefined;
  },
): Promise<{ items: LedgerLine[]; next_before_id: number | null }> {
  if (filter.currency !== undefined) checkCurrency(filter.currency);
  const rows = await s.ledger.history(userId, {
    book: BOOK,
    limit: filter.limit + 1,
    ...(filter.beforeId !== undefined ? { beforeId: filter.beforeId } : {}),
    ...(filter.type ? { type: filter.type } : {}),
    ...(filter.currency ? { currency: filter.currency } : {}),
  });
  const page = rows.slice(0, filter.limit);
  const last = page[page.length - 1];
  return {
    items: page.flatMap((row) => toLine(row) ?? []),
    next_before_id: rows.length > filter.limit && last ? last.postingId : null,
  };
}

export interface TransferInput {
  currency: string;
  from: AccountType;
  to: AccountType;
  amount: string;
  request_id: string;
}

/**
 * The ledger id of a client's transfer: in its own `transfer:` space, so no client id can take an id the server uses
 * for its own postings of this user (a deposit's approval, a day's interest, an IEO credit).
 */
export const transferRequestId = (clientId: string) => `transfer:${clientId}`;

/** wallet/change: one ledger transfer (applied once per request id) and the new balances of both accounts. */
export async function transfer(s: WalletServices, userId: number, input: TransferInput): Promise<TransferReceipt> {
  const { currency, from, to } = input;
  checkCurrency(currency);
  if (from === to) throw new BusinessError('transferSameAccount', { field: 'to' });
  const parsed = parseAmount(currency, input.amount);
  if (!parsed.ok) throw new BusinessError(parsed.error, { field: 'amount' });
  const request = {
    userId,
    requestId: transferRequestId(input.request_id),
    book: BOOK,
    currency,
    amount: parsed.units,
    from,
    to,
  } as const;
  const guard = s.guards.find((g) => g.type === from && g.currency === currency);
  const receipt = await ledgerEdge(
    () =>
      // Out of a guarded account: checked and moved in one transaction, under the lock the ledger takes.
      guard ? transferOutOfGuarded(s, guard, request) : transferBetween(s, request),
    TRANSFER_FIELDS,
  );
  const balances = await heldBalances(s, userId);
  return {
    entry_id: receipt.entryId,
    created_at: receipt.createdAt,
    replayed: receipt.replayed,
    currency,
    amount: formatAmount(currency, parsed.units),
    from: { type: from, ...amounts(currency, balances.get(`${from}/${currency}`)) },
    to: { type: to, ...amounts(currency, balances.get(`${to}/${currency}`)) },
  };
}

/** A transfer between accounts that back nothing: the ledger's move, with the request-id claim confirmed in it. */
function transferBetween(s: WalletServices, request: TransferRequest): Promise<Receipt> {
  return writeTransaction(s.database, async (trx) => {
    const receipt = await s.ledger.within(trx).transfer(request);
    // With the effect: a success always leaves its request-id claim confirmed (platform/request-ids).
    await confirmClaimedRequest(trx, request.userId);
    return receipt;
  });
}

/**
 * A transfer out of an account another domain guards (lever: RULES "Cross margin", money that backs cross positions
 * stays). Both accounts are locked first, in id order as the ledger locks them (so a transfer the other way cannot
 * deadlock with this one); then the guard judges (lever: the cross wallet at the current marks) and the ledger moves
 * the money in the same transaction. A cross open locks the same contract account row, so each sees what the other
 * left. A retry of an applied request is not judged again: the ledger answers it with its first receipt.
 */
async function transferOutOfGuarded(
  s: WalletServices,
  guard: AccountGuard,
  request: TransferRequest,
): Promise<Receipt> {
  const { userId, book, currency } = request;
  return writeTransaction(s.database, async (trx) => {
    await withLedger(trx)
      .selectFrom('ledger_accounts')
      .select('id')
      .where('user_id', '=', userId)
      .where('book', '=', book ?? BOOK)
      .where('currency', '=', currency)
      .where('type', 'in', [request.from, request.to])
      .orderBy('id')
      .$if(s.database.kind === 'postgres', (qb) => qb.forUpdate())
      .execute();
    const applied = await withLedger(trx)
      .selectFrom('ledger_entries')
      .select('id')
      .where('user_id', '=', userId)
      .where('request_id', '=', request.requestId)
      .executeTakeFirst();
    if (!applied) {
      const markOf = (symbol: string) => s.feed?.quote(symbol)?.last;
      await guard.refuseTransfer(trx, s.database.kind, userId, book ?? BOOK, BigInt(request.amount), markOf);
    }
    const receipt = await s.ledger.within(trx).transfer(request);
    await confirmClaimedRequest(trx, userId);
    return receipt;
  });
}

/** wallet/hzhistory: the user's transfers between account types, newest first, a page at a time. */
export async function transferHistory(
  s: WalletServices,
  userId: number,
  page: { limit: number; beforeId?: number | undefined },
): Promise<{ items: TransferRecord[]; next_before_id: number | null }> {
  const rows = await withLedger(s.database.db)
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_postings as po', 'po.entry_id', 'e.id')
    .innerJoin('ledger_accounts as fa', 'fa.id', 'po.account_id')
    .innerJoin('ledger_postings as pi', 'pi.entry_id', 'e.id')
    .innerJoin('ledger_accounts as ta', 'ta.id', 'pi.account_id')
    .select(['e.id', 'e.created_at', 'fa.type as from', 'ta.type as to', 'fa.currency', 'pi.amount'])
    .where('e.user_id', '=', userId)
    .where('e.kind', '=', 'transfer')
    .where('po.amount', '<', 0)
    .where('pi.amount', '>', 0)
    .where('fa.user_id', '=', userId)
    .where('ta.user_id', '=', userId)
    .where('fa.book', '=', BOOK)
    .$if(page.beforeId !== undefined, (qb) => qb.where('e.id', '<', page.beforeId ?? 0))
    .orderBy('e.id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const items: TransferRecord[] = [];
  for (const row of rows.slice(0, page.limit)) {
    if (!isAccountType(row.from) || !isAccountType(row.to)) continue;
    items.push({
      id: row.id,
      currency: row.currency,
      amount: formatAmount(row.currency, row.amount),
      from: row.from,
      to: row.to,
      created_at: row.created_at,
    });
  }
  const last = rows[page.limit - 1];
  return { items, next_before_id: rows.length > page.limit && last ? last.id : null };
}
