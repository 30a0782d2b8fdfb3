import type { Generated, Insertable, Selectable } from 'kysely';
import type { CodeScene, Lang, UploadMime, VerificationLevel } from '../../../protocol';
import type { Chain, ChainCoin } from '../../../protocol/chains';
import type { LedgerAccountType, LedgerBook } from './ledger-kinds';

/**
 * Table types for Kysely. Shared by SQLite and PostgreSQL, so: times are integer milliseconds
 * (bigint in PostgreSQL, read back as numbers), booleans would be 0/1 integers, ids are auto-increment integers.
 */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** Lowercased. */
  email: string | null;
  /** Calling code digits without '+', e.g. '49'. */
  area_code: string | null;
  /** National number digits without trunk zero, e.g. '15112345678'. */
  mobile: string | null;
  /** `+<area_code><mobile>`: the unique form of the phone number, also the code address. */
  phone: string | null;
  password_hash: string;
  fund_password_hash: string | null;
  invite_code: string;
  /** User whose invite code was used; null when the platform code was used. */
  referrer_id: number | null;
  lang: Lang;
  created_at: number;
  last_login_at: number | null;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  /** sha256 of the token; the token itself is never stored. */
  token_hash: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export type CodeChannel = 'email' | 'sms';

export interface VerificationCodesTable {
  id: Generated<number>;
  channel: CodeChannel;
  address: string;
  scene: CodeScene;
  code_hash: string;
  created_at: number;
  expires_at: number;
  /** Wrong attempts so far; the code is dead at the limit. */
  tries: number;
  consumed_at: number | null;
}

/** Simulated delivery: where codes go when there is no SMTP (and always for SMS). Read by e2e tests and `ops codes`. */
export interface CodeOutboxTable {
  id: Generated<number>;
  channel: CodeChannel;
  address: string;
  scene: CodeScene;
  code: string;
  created_at: number;
}

/** One row per counted event; a limit counts the rows of its bucket inside its window. */
export interface RateLimitHitsTable {
  id: Generated<number>;
  bucket: string;
  at: number;
}

export interface PlatformSettingsTable {
  key: string;
  value: string;
}

/** Every published price, so a settlement can be checked against the feed later (DESIGN "Fair outcomes"). */
export interface PriceTicksTable {
  id: Generated<number>;
  instrument_id: number;
  symbol: string;
  /** Server ms of the price. */
  ts: number;
  /** Exact decimal string, as published. */
  price: string;
  /** The feed's per-instrument sequence number. */
  seq: number;
  /** The price_batches row that seals it; null until sealed (a tick pinned before the recorder flushed it). */
  batch_id: number | null;
}

/** One link of the price record's hash chain (protocol/rules/price-record.ts): the ticks of one recorder flush. */
export interface PriceBatchesTable {
  /** The batch number: 1, 2, 3 ... without gaps. */
  id: number;
  from_ts: number;
  to_ts: number;
  tick_count: number;
  /** Hex sha256 of the batch's ticks; hash = sha256(prev_hash + '\n' + digest). */
  digest: string;
  prev_hash: string;
  hash: string;
  created_at: number;
}

/** A tick that an order or settlement uses (`owner`, e.g. 'spot:123'): its batch outlives the retention. */
export interface PricePinsTable {
  symbol: string;
  seq: number;
  owner: string;
}

/** A user's favourite instruments (currency/user_currency_list). */
export interface FavouritesTable {
  user_id: number;
  symbol: string;
  created_at: number;
}

/**
 * One ledger account: a user's (user_id set) or the platform's (user_id null), per book, type and currency.
 * balance and held are integer minor units (see server/ledger/amounts.ts), kept equal to the sums of the
 * account's postings and open holds; `balance - held` is what the user can spend.
 */
export interface LedgerAccountsTable {
  id: Generated<number>;
  user_id: number | null;
  book: LedgerBook;
  type: LedgerAccountType;
  currency: string;
  balance: number;
  held: number;
  created_at: number;
}

/** One applied request: the unit of idempotency (user_id + request_id) and the parent of its postings. Append-only. */
/** A currency the ledger keeps besides the static coins: a coin listed at run time (migration 0026). */
export interface LedgerCurrenciesTable {
  symbol: string;
  /** Its decimals: amounts of it are integers of 10^-scale. */
  scale: number;
  created_at: number;
}

export interface LedgerEntriesTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  /** The client's id for the request, unique per user. */
  request_id: string;
  /** sha256 of the request's body, so a reused id with another body is told apart from a retry. */
  request_digest: string;
  memo: string | null;
  created_at: number;
}

/** A signed change of one account's balance; an entry's postings sum to zero per book and currency. Append-only. */
export interface LedgerPostingsTable {
  id: Generated<number>;
  entry_id: number;
  account_id: number;
  amount: number;
}

export type LedgerHoldState = 'open' | 'posted' | 'voided';
/** `principal`: a finance order's principal, held in the trust account while it runs. */
export type LedgerHoldKind =
  | 'withdrawal'
  | 'c2c_escrow'
  | 'ieo_payment'
  /** IEO coins credited at listing, locked until the project's unlock time. */
  | 'ieo_lock'
  | 'order'
  | 'margin'
  | 'principal';

/** Frozen funds of one account. Leaves `open` exactly once, to `posted` or `voided`. */
export interface LedgerHoldsTable {
  id: Generated<number>;
  account_id: number;
  kind: LedgerHoldKind;
  /** What the hold is for, in the caller's terms (a withdrawal id, an order number). */
  ref: string | null;
  amount: number;
  state: LedgerHoldState;
  /** The entry that placed it. */
  entry_id: number;
  resolved_entry_id: number | null;
  created_at: number;
  resolved_at: number | null;
}

/** An uploaded image. The file is `<uploads dir>/<file_name>`, a name the server chose; only its owner reads it. */
export interface UploadsTable {
  id: Generated<number>;
  user_id: number;
  file_name: string;
  /** From the file's first bytes, not from what the client said. */
  mime: UploadMime;
  size: number;
  sha256: string;
  created_at: number;
  /** Set when the owner removed it (the file is gone then). */
  deleted_at: number | null;
  /** What uses the image, e.g. `identity:12`; an attached image can no longer be deleted. */
  attached_to: string | null;
}

export type IdentityState = 'pending' | 'verified' | 'rejected';

/** One submission of identity verification. At most one pending or verified row per user and level. */
export interface IdentityVerificationsTable {
  id: Generated<number>;
  user_id: number;
  level: VerificationLevel;
  state: IdentityState;
  /** Basic level: ISO 3166 alpha-2 country, full name, ID number, contact address. */
  country: string | null;
  name: string | null;
  id_number: string | null;
  address: string | null;
  /** Advanced level: the three photos. */
  front_upload_id: number | null;
  back_upload_id: number | null;
  hold_upload_id: number | null;
  /** The operator's reason for a rejection. */
  reason: string | null;
  created_at: number;
  reviewed_at: number | null;
}

/** One operator action (`npm run ops`); append-only. `detail` is JSON. */
export interface OpsAuditTable {
  id: Generated<number>;
  at: number;
  /** OPS_OPERATOR, else the OS user who ran the command. */
  operator: string;
  action: string;
  subject_type: string;
  subject_id: string;
  detail: string;
}

/** An operator of the support console (server/domains/operators): an account of its own, never a user. */
export interface OperatorsTable {
  id: Generated<number>;
  /** Lower case, unique; the name the audit log records for the operator's actions. */
  name: string;
  /** argon2id (the account module's PasswordHasher). */
  password_hash: string;
  /** The TOTP secret (base32), sealed under the data key. */
  totp_secret_enc: string;
  /** The last TOTP time step a login used: a code of that step or an earlier one is refused. */
  totp_last_step: number | null;
  /** Comma-separated roles of support, reviewer, qa, admin (protocol/ops-console.ts OPS_ROLES). */
  roles: string;
  disabled_at: number | null;
  created_at: number;
  last_login_at: number | null;
}

/** A console session of an operator; only sha256(token) is stored (like user sessions). */
export interface OperatorSessionsTable {
  id: Generated<number>;
  operator_id: number;
  token_hash: string;
  created_at: number;
  /** Renewed by requests: the session ends after a while without any (idle expiry). */
  last_seen_at: number;
  /** The session ends then whatever happens (absolute expiry). */
  expires_at: number;
  revoked_at: number | null;
}

/** A private event for one user, relayed to the sockets of that user. `payload` is JSON. */
export interface UserEventsTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  payload: string;
  created_at: number;
}

/** A saved withdrawal address (SPEC 3). `address` is canonical for its chain (protocol/chains.ts). */
export interface WithdrawAddressesTable {
  id: Generated<number>;
  user_id: number;
  coin: ChainCoin;
  chain: Chain;
  address: string;
  label: string | null;
  created_at: number;
  /** Set when the owner deleted it; deleted rows are never shown or used again. */
  deleted_at: number | null;
}

/** A bound bank card (SPEC 3). Card number digits only, IBAN and SWIFT upper case without spaces. */
export interface BankCardsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  bank_name: string;
  branch_name: string;
  branch_number: string;
  /** Card number, bank account and IBAN are sealed under the data key (domains/bank-cards/vault.ts). */
  card_number_enc: string;
  /** Keyed hash of user and card number: keeps a user's live card numbers unique without storing them. */
  card_number_hash: string;
  /** The card number's last four digits (shown masked, and in deposit records); not secret. */
  card_last4: string;
  bank_address: string;
  swift_code: string;
  cardholder_name: string;
  bank_account_enc: string;
  iban_enc: string;
  payee_address: string;
  postal_code: string;
  created_at: number;
  updated_at: number | null;
  deleted_at: number | null;
}

/** Per-coin deposit and withdrawal limits (minor units); `ops fees set` changes them. */
export interface FundingCoinsTable {
  coin: ChainCoin;
  min_deposit: number;
  min_withdraw: number;
  withdraw_fee: number;
  updated_at: number;
}

/** The platform's receiving address per coin and chain; `ops deposit-address set` changes it. */
export interface DepositAddressesTable {
  coin: ChainCoin;
  chain: Chain;
  address: string;
  updated_at: number;
}

/** `approving` / `rejecting`: claimed by an operator, the ledger step not yet confirmed (shown as under review). */
export type FundingRowState = 'pending' | 'approving' | 'rejecting' | 'passed' | 'rejected';

/** A deposit under or after review (crypto: chain, platform address, hash; bank: the user's card). */
export interface DepositsTable {
  id: Generated<number>;
  user_id: number;
  method: 'crypto' | 'bank';
  coin: ChainCoin;
  chain: Chain | null;
  address: string | null;
  /** Lower case. */
  hash: string | null;
  bank_card_id: number | null;
  amount: number;
  proof_upload_id: number;
  request_id: string;
  request_digest: string;
  state: FundingRowState;
  reason: string | null;
  /** The ledger entry that credited it. */
  entry_id: number | null;
  created_at: number;
  reviewed_at: number | null;
}

/** A withdrawal request; `hold_id` freezes amount + fee until review. */
export interface WithdrawalsTable {
  id: Generated<number>;
  user_id: number;
  coin: ChainCoin;
  chain: Chain;
  address_id: number;
  address: string;
  amount: number;
  fee: number;
  remark: string | null;
  request_id: string;
  request_digest: string;
  hold_id: number;
  state: FundingRowState;
  reason: string | null;
  created_at: number;
  reviewed_at: number | null;
}

export type SpotOrderRowState = 'waiting' | 'pending' | 'completed' | 'cancelled';

/** A spot order (server/domains/spot): amounts as exact decimal strings, money in the ledger. */
export interface SpotOrdersTable {
  id: Generated<number>;
  user_id: number;
  symbol: string;
  side: 'buy' | 'sell';
  type: 'market' | 'limit';
  mode: 'quantity' | 'amount';
  qty: string | null;
  amount: string | null;
  price: string | null;
  fee_rate: string;
  price_band: string;
  hold_id: number;
  /** Minor units held: USDT for a buy, the coin for a sell. */
  held: number;
  state: SpotOrderRowState;
  cancel_reason: 'user' | 'no_tick' | 'price_band' | null;
  request_id: string;
  request_digest: string;
  accepted_at: number;
  fill_seq: number | null;
  fill_ts: number | null;
  fill_price: string | null;
  fill_qty: string | null;
  fill_value: string | null;
  fill_fee: string | null;
  fill_total: string | null;
  filled_at: number | null;
  created_at: number;
  updated_at: number;
}

export type OptionContractRowState = 'waiting' | 'running' | 'won' | 'lost' | 'flat' | 'refunded' | 'cancelled';

/** A finance product (server/domains/finance); amounts are minor units of its currency. */
export interface FinanceProductsTable {
  id: Generated<number>;
  family: 'trust' | 'hosting';
  name: string;
  currency: string;
  cycle_days: number;
  daily_rate: string;
  min_amount: number;
  max_amount: number;
  penalty_kind: 'ratio' | 'interest_multiple';
  penalty_value: string;
  /** 1 while it sells, 0 when the operator stopped it. */
  on_sale: number;
  /** 1 when lh/send/get_recommend lists it. */
  recommended: number;
  created_at: number;
  updated_at: number;
}

/** A finance order: the principal is a ledger hold in the trust account; the terms are copied from the product. */
export interface FinanceOrdersTable {
  id: Generated<number>;
  user_id: number;
  product_id: number;
  family: 'trust' | 'hosting';
  name: string;
  currency: string;
  amount: number;
  daily_rate: string;
  cycle_days: number;
  penalty_kind: 'ratio' | 'interest_multiple';
  penalty_value: string;
  daily_interest: number;
  /** UTC day number of the first interest day. */
  start_day: number;
  days_paid: number;
  income: number;
  state: 'hosting' | 'completed' | 'redeemed';
  next_due_at: number | null;
  principal_hold_id: number;
  penalty: number | null;
  request_id: string;
  request_digest: string;
  created_at: number;
  updated_at: number;
  ended_at: number | null;
}

/** An IEO project (server/domains/ieo); supply and cap are minor units of the coin (8 decimals). */
export interface IeoProjectsTable {
  id: Generated<number>;
  coin: string;
  name: string;
  description: string;
  ieo_price: string;
  listing_price: string;
  total_supply: string;
  circulating_supply: string;
  supply: number;
  user_cap: number;
  starts_at: number;
  ends_at: number;
  allot_at: number;
  pay_until: number;
  list_at: number;
  unlock_at: number;
  /** Everything subscribed (each ask capped), fixed by the allotment. */
  demand: number | null;
  allotted_at: number | null;
  lapsed_at: number | null;
  listed_at: number | null;
  unlocked_at: number | null;
  created_at: number;
}

/** A coin listed while the market runs (server/market/listing): its instrument, as every process serves it. */
export interface ListedCoinsTable {
  /** The instrument id (1000 and up), chosen by listCoin. */
  id: number;
  symbol: string;
  name: string;
  price_scale: number;
  qty_scale: number;
  /** Decimal text on the tick (price_scale decimals). */
  start_price: string;
  /** The walk's parameters as decimal text (server/market/listing/coins.ts). */
  sigma_per_minute: string;
  trade_size: string;
  listed_at: number;
  created_at: number;
}

export type IeoPhaseColumn = 'subscribed' | 'failed' | 'allotted' | 'lapsed' | 'paid' | 'locked' | 'unlocked';

/** One user's subscription to a project; its payment and its locked coins are ledger holds. */
export interface IeoSubscriptionsTable {
  id: Generated<number>;
  project_id: number;
  user_id: number;
  asked: number;
  allotted: number | null;
  payment: number | null;
  phase: IeoPhaseColumn;
  pay_hold_id: number | null;
  lock_hold_id: number | null;
  request_id: string;
  request_digest: string;
  paid_at: number | null;
  created_at: number;
  updated_at: number;
}

/** An option contract (server/domains/options): the stake is a ledger hold, amounts are minor units. */
export interface OptionContractsTable {
  id: Generated<number>;
  user_id: number;
  book: 'real' | 'simulator';
  symbol: string;
  direction: 'up' | 'down';
  seconds: number;
  ratio: string;
  currency: string;
  stake: number;
  hold_id: number;
  state: OptionContractRowState;
  entry_seq: number | null;
  entry_ts: number | null;
  entry_price: string | null;
  expiry_ts: number | null;
  exit_seq: number | null;
  exit_ts: number | null;
  exit_price: string | null;
  payout: number | null;
  request_id: string;
  request_digest: string;
  accepted_at: number;
  settled_at: number | null;
  created_at: number;
  updated_at: number;
}

export type LeverPhaseRow = 'waiting' | 'pending' | 'holding' | 'closing' | 'closed' | 'cancelled';

/** One lever order and the position it opens (server/domains/lever). Money is minor units of USDT. */
export interface LeverPositionsTable {
  id: Generated<number>;
  user_id: number;
  book: 'real' | 'simulator';
  symbol: string;
  side: 'long' | 'short';
  margin_mode: 'isolated' | 'cross';
  order_type: 'market' | 'limit';
  lots: number;
  contract_size: string;
  leverage: number;
  mmr: string;
  fee_rate: string;
  price_scale: number;
  limit_price: string | null;
  tp_price: string | null;
  sl_price: string | null;
  phase: LeverPhaseRow;
  version: number;
  reserve: number;
  reserve_hold_id: number | null;
  margin: number | null;
  added_margin: number;
  margin_hold_id: number | null;
  open_fee: number | null;
  close_fee: number | null;
  realized_pnl: number | null;
  insurance: number | null;
  liq_price: string | null;
  entry_seq: number | null;
  entry_ts: number | null;
  entry_price: string | null;
  exit_seq: number | null;
  exit_ts: number | null;
  exit_price: string | null;
  close_reason: 'user' | 'take_profit' | 'stop_loss' | 'liquidation' | null;
  cancel_reason: 'user' | 'no_tick' | 'insufficient_margin' | null;
  request_id: string;
  request_digest: string;
  /** Ticks after this time are judged by the row's current terms (its version). */
  terms_since: number;
  accepted_at: number;
  opened_at: number | null;
  close_requested_at: number | null;
  closed_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A chat conversation (server/domains/chat): a user with support, or a C2C order's buyer and merchant. */
export interface ChatConversationsTable {
  id: Generated<number>;
  kind: 'support' | 'order';
  topic: string | null;
  order_id: number | null;
  state: 'open' | 'closed';
  last_seq: Generated<number>;
  support_read_seq: Generated<number>;
  created_at: number;
  updated_at: number;
  closed_at: number | null;
}

export interface ChatMembersTable {
  conversation_id: number;
  user_id: number;
  role: 'user' | 'buyer' | 'merchant';
  display_name: string;
  read_seq: Generated<number>;
}

export interface ChatMessagesTable {
  id: Generated<number>;
  conversation_id: number;
  seq: number;
  /** `u:<user id>`, `o:<operator id>` or `system`. */
  author: string;
  author_name: string;
  client_id: string | null;
  kind: 'text' | 'image' | 'event';
  text: string | null;
  image_id: number | null;
  created_at: number;
}

/** A help centre article (server/domains/help); its title and body per language are rows of help_article_texts. */
export interface HelpArticlesTable {
  id: Generated<number>;
  topic: 'account' | 'deposit' | 'withdrawal' | 'trading' | 'c2c' | 'security' | 'other';
  sort_order: number;
  /** 1 when readers see it (it then has a German and an English text), else 0. */
  published: number;
  published_at: number | null;
  created_at: number;
  updated_at: number;
}

/** One language's text of a help article: plain text, paragraphs separated by blank lines. */
export interface HelpArticleTextsTable {
  article_id: number;
  lang: 'de' | 'en';
  title: string;
  body: string;
  /** Title and body lowercased with whitespace collapsed: what a search matches, the same on both databases. */
  search: string;
  updated_at: number;
}

/** A C2C merchant (server/domains/c2c): a user the operator marked as one; `active` 0 after removal. */
export interface C2cMerchantsTable {
  user_id: number;
  nickname: string;
  active: number;
  created_at: number;
  updated_at: number;
}

/** A merchant's C2C ad: price in 10^-6 fiat units, amounts in the coin's minor units, limits in cents. */
export interface C2cAdsTable {
  id: Generated<number>;
  merchant_id: number;
  coin: string;
  fiat: string;
  price: number;
  amount: number;
  /** Quantities of its orders in status 1 to 4; available = amount − taken. */
  taken: number;
  /** Quantities of its completed orders (deal volume). */
  sold: number;
  min_fiat: number;
  max_fiat: number;
  /** Comma-separated pay types (plain: the lists show them). */
  pay_types: string;
  /** The payment methods with their details, sealed under the data key (JSON). */
  pay_methods_enc: string;
  note: string;
  state: 'open' | 'closed';
  created_at: number;
  updated_at: number;
  closed_at: number | null;
}

/** A C2C order: the ad's terms it was placed under; its quantity held in escrow from the merchant (hold_id). */
export interface C2cOrdersTable {
  id: Generated<number>;
  ad_id: number;
  merchant_id: number;
  buyer_id: number;
  coin: string;
  fiat: string;
  price: number;
  quantity: number;
  amount: number;
  min_fiat: number;
  max_fiat: number;
  pay_type: string;
  /** The chosen payment method's details, sealed under the data key (JSON). */
  pay_info_enc: string;
  merchant_nickname: string;
  buyer_nickname: string;
  /** 1 paying, 2 paid, 3 completed, 4 appeal, 5 cancelled. */
  status: 1 | 2 | 3 | 4 | 5;
  hold_id: number | null;
  conversation_id: number | null;
  request_id: string;
  request_digest: string;
  created_at: number;
  pay_until: number;
  paid_at: number | null;
  completed_at: number | null;
  cancelled_at: number | null;
  cancel_reason: 'buyer' | 'expired' | 'appeal' | null;
  appeal_by: 'buyer' | 'merchant' | null;
  appeal_reason: string | null;
  appeal_opened_at: number | null;
  appeal_decision: 'release' | 'cancel' | null;
  appeal_decision_reason: string | null;
  appeal_decided_at: number | null;
  updated_at: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  verification_codes: VerificationCodesTable;
  code_outbox: CodeOutboxTable;
  rate_limit_hits: RateLimitHitsTable;
  platform_settings: PlatformSettingsTable;
  price_ticks: PriceTicksTable;
  price_batches: PriceBatchesTable;
  price_pins: PricePinsTable;
  favourites: FavouritesTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_currencies: LedgerCurrenciesTable;
  ledger_entries: LedgerEntriesTable;
  ledger_postings: LedgerPostingsTable;
  ledger_holds: LedgerHoldsTable;
  uploads: UploadsTable;
  identity_verifications: IdentityVerificationsTable;
  ops_audit: OpsAuditTable;
  operators: OperatorsTable;
  operator_sessions: OperatorSessionsTable;
  user_events: UserEventsTable;
  withdraw_addresses: WithdrawAddressesTable;
  bank_cards: BankCardsTable;
  funding_coins: FundingCoinsTable;
  deposit_addresses: DepositAddressesTable;
  deposits: DepositsTable;
  withdrawals: WithdrawalsTable;
  spot_orders: SpotOrdersTable;
  option_contracts: OptionContractsTable;
  lever_positions: LeverPositionsTable;
  finance_products: FinanceProductsTable;
  finance_orders: FinanceOrdersTable;
  listed_coins: ListedCoinsTable;
  ieo_projects: IeoProjectsTable;
  ieo_subscriptions: IeoSubscriptionsTable;
  c2c_merchants: C2cMerchantsTable;
  c2c_ads: C2cAdsTable;
  c2c_orders: C2cOrdersTable;
  help_articles: HelpArticlesTable;
  help_article_texts: HelpArticleTextsTable;
  chat_conversations: ChatConversationsTable;
  chat_members: ChatMembersTable;
  chat_messages: ChatMessagesTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type NewPriceTick = Insertable<PriceTicksTable>;
