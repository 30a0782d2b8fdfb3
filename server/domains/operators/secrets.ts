import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import { type CardVault, type SealedData, SealedValueError } from '../bank-cards';
import { withOperators } from './tables';

/**
 * The operators' TOTP secrets at rest, sealed under the data key exactly as bank card numbers are (the bank cards'
 * CardVault: XChaCha20-Poly1305, a random nonce per value, the column and the operator's id as associated data, so a
 * value copied to another operator's row does not open). `data-key rotate` moves them to a new key with the cards
 * (operatorSealedData), and `data-key check` opens them.
 */

const COLUMN = 'operator_totp_secret';

export const sealTotpSecret = (vault: CardVault, operatorId: number, secret: string): string =>
  vault.seal(COLUMN, operatorId, secret);

/** The secret; throws SealedValueError when it does not open (another data key, or an altered row). */
export const openTotpSecret = (vault: CardVault, operatorId: number, stored: string): string =>
  vault.open(COLUMN, operatorId, stored);

export const isSealedValueError = (err: unknown): err is SealedValueError => err instanceof SealedValueError;

async function resealTotpSecrets(trx: Kysely<Database>, from: CardVault, to: CardVault): Promise<number> {
  const rows = await withOperators(trx)
    .selectFrom('operators')
    .select(['id', 'totp_secret_enc'])
    .orderBy('id')
    .execute();
  for (const row of rows) {
    await withOperators(trx)
      .updateTable('operators')
      .set({ totp_secret_enc: sealTotpSecret(to, row.id, openTotpSecret(from, row.id, row.totp_secret_enc)) })
      .where('id', '=', row.id)
      .execute();
  }
  return rows.length;
}

async function checkTotpSecrets(db: Kysely<Database>, vault: CardVault): Promise<{ total: number; failed: string[] }> {
  const rows = await withOperators(db)
    .selectFrom('operators')
    .select(['id', 'name', 'totp_secret_enc'])
    .orderBy('id')
    .execute();
  const failed: string[] = [];
  for (const row of rows) {
    try {
      openTotpSecret(vault, row.id, row.totp_secret_enc);
    } catch (err) {
      if (!isSealedValueError(err)) throw err;
      failed.push(`operator ${row.name}`);
    }
  }
  return { total: rows.length, failed };
}

/** The operators' TOTP secrets as `data-key rotate` and `data-key check` move and open them. */
export const operatorSealedData: SealedData = {
  label: 'operator TOTP secret(s)',
  reseal: resealTotpSecrets,
  check: checkTotpSecrets,
};
