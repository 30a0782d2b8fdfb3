import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { okEnvelope } from '../../protocol';
import { cashInfoResponse } from '../../protocol/bank-cards';
import {
  CardVault,
  cardEncryptionMigration,
  DATA_KEY_ID_SETTING,
  dataKeyFileOf,
  loadDataKey,
  readKeyFile,
  runDataKeyCommand,
  withBankCards,
} from '../../server/domains/bank-cards';
import { MIGRATIONS } from '../../server/migrations';
import { type DatabaseHandle, isUniqueViolation, openSqlite } from '../../server/platform/db/connect';
import { runMigrations } from '../../server/platform/db/migrator';
import { Sessions } from '../../server/platform/security/sessions';
import { insertUser, openPostgresSchema } from '../../server/testing';
import { DATABASES, type DatabaseKind, openTestDatabase, startTestApp, type TestApp, uniqueEmail } from './harness';

/**
 * Bank card numbers, bank accounts and IBANs at rest: migration 0008 seals the clear rows of an existing database,
 * and `data-key rotate` moves every row to a new key in one transaction.
 */

const KEY = new Uint8Array(32).map((_, i) => i * 7);
const CARD = {
  name: 'Erika Mustermann',
  bank_name: 'Commerzbank',
  branch_name: 'Köln',
  branch_number: '37040044',
  card_number: '4111111111111111',
  bank_address: 'Unter Sachsenhausen 21, 50667 Köln',
  swift_code: 'COBADEFFXXX',
  cardholder_name: 'ERIKA MUSTERMANN',
  bank_account: '0532013000',
  iban: 'DE89370400440532013000',
  payee_address: 'Heidestraße 17, 51147 Köln',
  postal_code: '51147',
};
const CLEAR = /4111111111111111|5500000000000004|0532013000|DE89370400440532013000|GB82WEST12345698765432/;

/** An empty database of `kind`, not migrated. */
async function openEmpty(kind: DatabaseKind): Promise<{ handle: DatabaseHandle; close(): Promise<void> }> {
  if (kind === 'postgres') return openPostgresSchema(process.env.TEST_DATABASE_URL ?? '');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-it-enc-'));
  const handle = openSqlite(path.join(dir, 'app.db'));
  return {
    handle,
    async close() {
      await handle.db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const before0008 = MIGRATIONS.filter((m) => m.name < '0008');

async function insertClearCard(
  handle: DatabaseHandle,
  userId: number,
  fields: Partial<typeof CARD> = {},
  deleted = false,
) {
  const c = { ...CARD, ...fields };
  await sql`insert into bank_cards (user_id, name, bank_name, branch_name, branch_number, card_number, bank_address,
      swift_code, cardholder_name, bank_account, iban, payee_address, postal_code, created_at, updated_at, deleted_at)
    values (${userId}, ${c.name}, ${c.bank_name}, ${c.branch_name}, ${c.branch_number}, ${c.card_number},
      ${c.bank_address}, ${c.swift_code}, ${c.cardholder_name}, ${c.bank_account}, ${c.iban}, ${c.payee_address},
      ${c.postal_code}, ${1_700_000_000_000}, ${null}, ${deleted ? 1_700_000_000_001 : null})`.execute(handle.db);
}

const cardRows = (handle: DatabaseHandle) =>
  withBankCards(handle.db).selectFrom('bank_cards').selectAll().orderBy('id').execute();

async function tokenFor(t: TestApp, userId: number): Promise<string> {
  return new Sessions(t.db, t.clock.now).create(userId);
}

const listCards = async (t: TestApp, token: string) => t.call('user/cash_info', {}, { token });

describe.each(DATABASES)('bank card encryption on %s', (kind) => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-it-key-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('migration 0008 seals the clear rows of an existing database and drops the clear columns', async () => {
    const { handle, close } = await openEmpty(kind);
    try {
      await runMigrations(handle, before0008);
      const alice = await insertUser(handle);
      const bob = await insertUser(handle);
      await insertClearCard(handle, alice);
      await insertClearCard(handle, alice, { card_number: '5500000000000004', iban: 'GB82WEST12345698765432' });
      // A deleted card with the same number as a live one (allowed before, and still after).
      await insertClearCard(handle, alice, {}, true);
      await insertClearCard(handle, bob);

      let keyLoads = 0;
      const migrations = [
        ...before0008,
        cardEncryptionMigration(() => {
          keyLoads++;
          return KEY;
        }),
      ];
      await runMigrations(handle, migrations);
      await runMigrations(handle, migrations);
      expect(keyLoads).toBe(1);

      const rows = await cardRows(handle);
      expect(rows).toHaveLength(4);
      expect(JSON.stringify(rows)).not.toMatch(CLEAR);
      for (const gone of ['card_number', 'bank_account', 'iban']) expect(rows[0]).not.toHaveProperty(gone);
      const vault = new CardVault(KEY);
      const opened = rows.map((r) => ({
        user: r.user_id,
        card: vault.open('card_number', r.user_id, r.card_number_enc),
        account: vault.open('bank_account', r.user_id, r.bank_account_enc),
        iban: vault.open('iban', r.user_id, r.iban_enc),
        last4: r.card_last4,
        hashed:
          r.card_number_hash ===
          vault.cardNumberHash(r.user_id, vault.open('card_number', r.user_id, r.card_number_enc)),
      }));
      expect(opened).toEqual([
        { user: alice, card: '4111111111111111', account: '0532013000', iban: CARD.iban, last4: '1111', hashed: true },
        {
          user: alice,
          card: '5500000000000004',
          account: '0532013000',
          iban: 'GB82WEST12345698765432',
          last4: '0004',
          hashed: true,
        },
        { user: alice, card: '4111111111111111', account: '0532013000', iban: CARD.iban, last4: '1111', hashed: true },
        { user: bob, card: '4111111111111111', account: '0532013000', iban: CARD.iban, last4: '1111', hashed: true },
      ]);
      const setting = await handle.db
        .selectFrom('platform_settings')
        .select('value')
        .where('key', '=', DATA_KEY_ID_SETTING)
        .executeTakeFirst();
      expect(setting?.value).toBe(vault.keyId);

      // The unique index now stands on the keyed hash: a second live row with alice's hash is refused.
      const first = rows[0];
      if (!first) throw new Error('no row');
      const { id: _id, ...copy } = first;
      const duplicate = await withBankCards(handle.db)
        .insertInto('bank_cards')
        .values(copy)
        .execute()
        .catch((err: unknown) => err);
      expect(isUniqueViolation(duplicate)).toBe(true);

      // The app with the key shows the cards masked as before; with another key it refuses rather than guess. A server
      // starts on a database with every migration applied (the later ones, such as the ledger's currencies, too).
      await runMigrations(handle, MIGRATIONS);
      const app = await startTestApp(handle, { dataKey: KEY });
      const wrong = await startTestApp(handle, { dataKey: new Uint8Array(32).fill(9) });
      try {
        const token = await tokenFor(app, alice);
        const cards = okEnvelope(cashInfoResponse).parse((await listCards(app, token)).body).data;
        expect(cards.map((c) => [c.card_number, c.bank_account, c.iban])).toEqual([
          ['**** 1111', '**** 3000', 'DE **** 3000'],
          ['**** 0004', '**** 3000', 'GB **** 5432'],
        ]);
        const refused = await listCards(wrong, token);
        expect(refused.status).toBe(500);
        expect(refused.body).toEqual({
          type: 'error',
          code: 0,
          message: 'Something went wrong – please try again',
          reason: 'serverError',
        });
        const save = await wrong.call('user/cash_save', { ...CARD, card_number: '4012888888881881' }, { token });
        expect(save.status).toBe(500);
        expect(await cardRows(handle)).toHaveLength(4);
      } finally {
        await app.close();
        await wrong.close();
      }
    } finally {
      await close();
    }
  });

  it('a database without cards migrates without reading any key', async () => {
    const { handle, close } = await openEmpty(kind);
    try {
      const migrations = [
        ...before0008,
        cardEncryptionMigration(() => {
          throw new Error('no key needed');
        }),
      ];
      await runMigrations(handle, migrations);
      expect(await cardRows(handle)).toEqual([]);
    } finally {
      await close();
    }
  });

  it('rotate re-encrypts every row and rewrites the hashes under the new key, in one go', async () => {
    const database = await openTestDatabase(kind);
    const dataDir = path.join(tempDir(), 'data');
    const { key: oldKey, file } = loadDataKey({ dataDir });
    const oldApp = await startTestApp(database.handle, { dataKey: oldKey });
    try {
      const alice = await oldApp.registerByEmail(uniqueEmail('rot'));
      const bob = await oldApp.registerByEmail(uniqueEmail('rot'));
      for (const [token, number] of [
        [alice.token, '4111111111111111'],
        [alice.token, '5500000000000004'],
        [bob.token, '4111111111111111'],
      ] as const) {
        expect((await oldApp.call('user/cash_save', { ...CARD, card_number: number }, { token })).body.type).toBe('ok');
      }
      const shown = (await listCards(oldApp, alice.token)).body;
      const before = await cardRows(database.handle);

      const lines: string[] = [];
      const newFile = path.join(tempDir(), 'next.key');
      const code = await runDataKeyCommand(database.handle, ['rotate', newFile], (l) => lines.push(l), {
        source: { dataDir },
        now: () => Date.UTC(2026, 10, 23, 12),
      });
      expect(code, lines.join('\n')).toBe(0);
      expect(fs.statSync(newFile).mode & 0o777).toBe(0o600);
      const newKey = readKeyFile(newFile);
      // data.key now holds the new key; the old one is kept beside it for old backups.
      expect(readKeyFile(file ?? '')).toEqual(newKey);
      const kept = path.join(dataDir, 'data.key.replaced-2026-11-23T12-00-00-000Z');
      expect(readKeyFile(kept)).toEqual(oldKey);
      expect(fs.statSync(kept).mode & 0o777).toBe(0o600);
      expect(lines.join('\n')).toMatch(/re-encrypted 3 bank card\(s\)/);
      for (const key of [oldKey, newKey]) {
        expect(lines.join('\n')).not.toContain(Buffer.from(key).toString('base64'));
        expect(lines.join('\n')).not.toContain(Buffer.from(key).toString('hex'));
      }

      const after = await cardRows(database.handle);
      const [from, to] = [new CardVault(oldKey), new CardVault(newKey)];
      for (const [i, row] of after.entries()) {
        const old = before[i];
        if (!old) throw new Error('row missing');
        expect(row.card_number_enc).not.toBe(old.card_number_enc);
        expect(row.card_number_hash).not.toBe(old.card_number_hash);
        expect(() => from.open('card_number', row.user_id, row.card_number_enc)).toThrow();
        const number = to.open('card_number', row.user_id, row.card_number_enc);
        expect(number).toBe(from.open('card_number', old.user_id, old.card_number_enc));
        expect(row.card_number_hash).toBe(to.cardNumberHash(row.user_id, number));
        expect(to.open('iban', row.user_id, row.iban_enc)).toBe(CARD.iban);
        expect(to.open('bank_account', row.user_id, row.bank_account_enc)).toBe(CARD.bank_account);
      }

      // A server still on the old key refuses card calls until it restarts with the new one.
      expect((await listCards(oldApp, alice.token)).status).toBe(500);
      const newApp = await startTestApp(database.handle, { dataKey: newKey });
      try {
        expect((await listCards(newApp, alice.token)).body).toEqual(shown);
        // Uniqueness still holds through the rewritten hashes.
        const again = await newApp.call(
          'user/cash_save',
          { ...CARD, card_number: '4111 1111 1111 1111' },
          {
            token: alice.token,
          },
        );
        expect(again.body).toMatchObject({ message: 'This card is already bound', field: 'card_number' });
      } finally {
        await newApp.close();
      }

      // check: every row opens with the current key; with the old key it says the key is wrong.
      const out: string[] = [];
      expect(await runDataKeyCommand(database.handle, ['check'], (l) => out.push(l), { source: { dataDir } })).toBe(0);
      expect(out.at(-1)).toBe('3 of 3 bank card(s) open with the current key');
      const stale = { source: { dataDir, dataKey: Buffer.from(oldKey).toString('hex') } };
      expect(await runDataKeyCommand(database.handle, ['check'], (l) => out.push(l), stale)).toBe(1);
      expect(out.at(-1)).toMatch(/not the key the bank cards are encrypted with/);
      // Rotating from a key that is not the database's changes nothing.
      const third = path.join(tempDir(), 'third.key');
      expect(await runDataKeyCommand(database.handle, ['rotate', third], (l) => out.push(l), stale)).toBe(1);
      expect(await cardRows(database.handle)).toEqual(after);

      // With DATA_KEY set the operator changes it; data.key is left alone.
      const env = { source: { dataDir, dataKey: Buffer.from(newKey).toString('base64') } };
      expect(await runDataKeyCommand(database.handle, ['rotate', third], (l) => out.push(l), env)).toBe(0);
      expect(out).toContain(`DATA_KEY still holds the old key: set it to the key in ${third}`);
      expect(readKeyFile(dataKeyFileOf(dataDir))).toEqual(newKey);
      expect(
        await runDataKeyCommand(database.handle, ['rotate', third], (l) => out.push(l), {
          source: { dataDir, dataKey: Buffer.from(readKeyFile(third)).toString('hex') },
        }),
      ).toBe(1);
      expect(out.at(-1)).toBe('the new key is the current key: nothing to do');
    } finally {
      await oldApp.close();
      await database.close();
    }
  });

  it('explains its usage', async () => {
    const database = await openTestDatabase(kind);
    try {
      const out: string[] = [];
      expect(await runDataKeyCommand(database.handle, [], (l) => out.push(l))).toBe(1);
      expect(out.join('\n')).toMatch(/data-key rotate <new key file>/);
      expect(await runDataKeyCommand(database.handle, ['help'], () => undefined)).toBe(0);
      expect(await runDataKeyCommand(database.handle, ['rotate'], () => undefined)).toBe(1);
    } finally {
      await database.close();
    }
  });
});
