import type { Generated, Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';

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

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type BankCardsTables = {
  bank_cards: BankCardsTable;
};

export type BankCardsDb = Kysely<Database & BankCardsTables>;

/** The app's database (or a transaction) seen with this domain's tables, typed here beside the code that owns them. */
export const withBankCards = (db: Kysely<Database>): BankCardsDb => db.withTables<BankCardsTables>();
