import type { Kysely, Selectable } from 'kysely';
import type { z } from 'zod/mini';
import { type BankCard, type cashSaveRequest, MAX_BANK_CARDS } from '../../../protocol/bank-cards';
import { type DatabaseHandle, isUniqueViolation } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import type { BankCardsTable } from './tables';
import { withBankCards } from './tables';
import { assertDataKey, type CardVault } from './vault';

export interface BankCardServices {
  database: DatabaseHandle;
  now: () => number;
  /** Seals card numbers, bank accounts and IBANs at rest. */
  vault: CardVault;
}

type CardRow = Selectable<BankCardsTable>;
type CardFields = Omit<z.output<typeof cashSaveRequest>, 'id'>;

/** The last four letters or digits of a value, separators ignored. */
const tailOf = (value: string) => value.replace(/[^A-Za-z0-9]/g, '').slice(-4);

/** The stored form of a card's fields: the three numbers sealed for `userId`, the card number's hash and tail. */
function sealedColumns(vault: CardVault, userId: number, fields: CardFields) {
  const { card_number, bank_account, iban, ...plain } = fields;
  return {
    ...plain,
    card_number_enc: vault.seal('card_number', userId, card_number),
    card_number_hash: vault.cardNumberHash(userId, card_number),
    card_last4: tailOf(card_number),
    bank_account_enc: vault.seal('bank_account', userId, bank_account),
    iban_enc: vault.seal('iban', userId, iban),
  };
}

/** The last four letters or digits, behind a fixed mask, so the mask tells nothing about the length. */
export function maskTail(value: string, prefix = ''): string {
  return `${prefix}**** ${tailOf(value)}`;
}

/** What the owner sees: every field, but card number, bank account and IBAN only by their last four (IBAN: country too). */
export function toBankCard(row: CardRow, vault: CardVault): BankCard {
  const iban = vault.open('iban', row.user_id, row.iban_enc);
  return {
    id: row.id,
    name: row.name,
    bank_name: row.bank_name,
    branch_name: row.branch_name,
    branch_number: row.branch_number,
    card_number: maskTail(row.card_last4),
    bank_address: row.bank_address,
    swift_code: row.swift_code,
    cardholder_name: row.cardholder_name,
    bank_account: maskTail(vault.open('bank_account', row.user_id, row.bank_account_enc)),
    iban: maskTail(iban, `${iban.slice(0, 2)} `),
    payee_address: row.payee_address,
    postal_code: row.postal_code,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The user's live cards, oldest first (the order they were bound in). Only ever the caller's own rows. */
export async function listCards(s: BankCardServices, userId: number): Promise<BankCard[]> {
  const { db } = s.database;
  await assertDataKey(db, s.vault);
  const rows = await withBankCards(db)
    .selectFrom('bank_cards')
    .selectAll()
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .orderBy('id', 'asc')
    .execute();
  return rows.map((row) => toBankCard(row, s.vault));
}

async function liveCount(db: Kysely<Database>, userId: number): Promise<number> {
  const row = await withBankCards(db)
    .selectFrom('bank_cards')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Binds a new card (user/cash_save without id) or replaces the fields of one of the user's own cards (with id).
 * The same card number twice is refused, as is an 11th card; an id that is not the user's live card is "not found".
 */
export async function saveCard(
  s: BankCardServices,
  userId: number,
  input: z.output<typeof cashSaveRequest>,
): Promise<BankCard> {
  const { id, ...fields } = input;
  try {
    return await writeTransaction(s.database, async (trx) => {
      // Holds the key entry (PostgreSQL) so a key rotation waits for this save or this save sees the new key.
      await assertDataKey(trx, s.vault, s.database.kind === 'postgres');
      if (s.database.kind === 'postgres') {
        // Concurrent saves of one user queue here, so the limit holds (SQLite's BEGIN IMMEDIATE already serialises).
        await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
      }
      const duplicate = await withBankCards(trx)
        .selectFrom('bank_cards')
        .select('id')
        .where('user_id', '=', userId)
        .where('card_number_hash', '=', s.vault.cardNumberHash(userId, fields.card_number))
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (duplicate && duplicate.id !== id) throw new BusinessError('bankCardExists', { field: 'card_number' });

      if (id !== undefined) {
        const row = await withBankCards(trx)
          .updateTable('bank_cards')
          .set({ ...sealedColumns(s.vault, userId, fields), updated_at: s.now() })
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .where('deleted_at', 'is', null)
          .returningAll()
          .executeTakeFirst();
        if (!row) throw new BusinessError('bankCardNotFound', { field: 'id' });
        return toBankCard(row, s.vault);
      }

      if ((await liveCount(trx, userId)) >= MAX_BANK_CARDS) throw new BusinessError('bankCardLimit');
      const row = await withBankCards(trx)
        .insertInto('bank_cards')
        .values({
          ...sealedColumns(s.vault, userId, fields),
          user_id: userId,
          created_at: s.now(),
          updated_at: null,
          deleted_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toBankCard(row, s.vault);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new BusinessError('bankCardExists', { field: 'card_number' });
    throw err;
  }
}

/** Unbinds one of the user's own cards (kept as a deleted row); anyone else's id is "not found". */
export async function deleteCard(s: BankCardServices, userId: number, id: number): Promise<void> {
  const result = await withBankCards(s.database.db)
    .updateTable('bank_cards')
    .set({ deleted_at: s.now() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new BusinessError('bankCardNotFound', { field: 'id' });
}
