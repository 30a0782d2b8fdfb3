import type { Kysely, Selectable } from 'kysely';
import type { z } from 'zod';
import { type BankCard, type cashSaveRequest, MAX_BANK_CARDS } from '../../../protocol/bank-cards';
import { type DatabaseHandle, isUniqueViolation } from '../../platform/db/connect';
import type { BankCardsTable, Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';

export interface BankCardServices {
  database: DatabaseHandle;
  now: () => number;
}

type CardRow = Selectable<BankCardsTable>;

/** The last four letters or digits, behind a fixed mask, so the mask tells nothing about the length. */
export function maskTail(value: string, prefix = ''): string {
  const tail = value.replace(/[^A-Za-z0-9]/g, '').slice(-4);
  return `${prefix}**** ${tail}`;
}

/** What the owner sees: every field, but card number, bank account and IBAN only by their last four (IBAN: country too). */
export function toBankCard(row: CardRow): BankCard {
  return {
    id: row.id,
    name: row.name,
    bank_name: row.bank_name,
    branch_name: row.branch_name,
    branch_number: row.branch_number,
    card_number: maskTail(row.card_number),
    bank_address: row.bank_address,
    swift_code: row.swift_code,
    cardholder_name: row.cardholder_name,
    bank_account: maskTail(row.bank_account),
    iban: maskTail(row.iban, `${row.iban.slice(0, 2)} `),
    payee_address: row.payee_address,
    postal_code: row.postal_code,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The user's live cards, oldest first (the order they were bound in). Only ever the caller's own rows. */
export async function listCards(db: Kysely<Database>, userId: number): Promise<BankCard[]> {
  const rows = await db
    .selectFrom('bank_cards')
    .selectAll()
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .orderBy('id', 'asc')
    .execute();
  return rows.map(toBankCard);
}

async function liveCount(db: Kysely<Database>, userId: number): Promise<number> {
  const row = await db
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
      if (s.database.kind === 'postgres') {
        // Concurrent saves of one user queue here, so the limit holds (SQLite's BEGIN IMMEDIATE already serialises).
        await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
      }
      const duplicate = await trx
        .selectFrom('bank_cards')
        .select('id')
        .where('user_id', '=', userId)
        .where('card_number', '=', fields.card_number)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (duplicate && duplicate.id !== id) throw new BusinessError('bankCardExists', { field: 'card_number' });

      if (id !== undefined) {
        const row = await trx
          .updateTable('bank_cards')
          .set({ ...fields, updated_at: s.now() })
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .where('deleted_at', 'is', null)
          .returningAll()
          .executeTakeFirst();
        if (!row) throw new BusinessError('bankCardNotFound', { field: 'id' });
        return toBankCard(row);
      }

      if ((await liveCount(trx, userId)) >= MAX_BANK_CARDS) throw new BusinessError('bankCardLimit');
      const row = await trx
        .insertInto('bank_cards')
        .values({ ...fields, user_id: userId, created_at: s.now(), updated_at: null, deleted_at: null })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toBankCard(row);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new BusinessError('bankCardExists', { field: 'card_number' });
    throw err;
  }
}

/** Unbinds one of the user's own cards (kept as a deleted row); anyone else's id is "not found". */
export async function deleteCard(s: BankCardServices, userId: number, id: number): Promise<void> {
  const result = await s.database.db
    .updateTable('bank_cards')
    .set({ deleted_at: s.now() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new BusinessError('bankCardNotFound', { field: 'id' });
}
