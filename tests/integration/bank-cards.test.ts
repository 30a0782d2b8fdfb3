import { describe, expect, it } from 'vitest';
import { okEnvelope } from '../../protocol';
import { bankCard, cashInfoResponse, MAX_BANK_CARDS } from '../../protocol/bank-cards';
import { CardVault, withBankCards } from '../../server/domains/bank-cards';
import { appPerSuite, DATABASES, type TestApp, uniqueEmail } from './harness';

/** The data key the suite's app gets (the server reads DATA_KEY or DATA_DIR/data.key). */
const DATA_KEY = new Uint8Array(32).map((_, i) => 200 - i);

const CARD = {
  name: 'Erika Mustermann',
  bank_name: 'Commerzbank',
  branch_name: 'Köln Innenstadt',
  branch_number: '370 400 44',
  card_number: '4111 1111 1111 1111',
  bank_address: 'Unter Sachsenhausen 21, 50667 Köln',
  swift_code: 'coba de ff xxx',
  cardholder_name: 'ERIKA MUSTERMANN',
  bank_account: '0532013000',
  iban: 'de89 3704 0044 0532 0130 00',
  payee_address: 'Heidestraße 17, 51147 Köln',
  postal_code: '51147',
};
/** Luhn-valid test numbers of other networks. */
const OTHER_CARDS = [
  '5500000000000004',
  '4012888888881881',
  '378282246310005',
  '6011111111111117',
  '3530111333300000',
  '5105105105105100',
  '4222222222222',
  '371449635398431',
  '6011000990139424',
  '30569309025904',
];

describe.each(DATABASES)('bank cards on %s', (kind) => {
  let t: TestApp;
  appPerSuite(
    kind,
    (app) => {
      t = app;
    },
    { dataKey: DATA_KEY },
  );

  const user = () => t.registerByEmail(uniqueEmail('bank'));
  const cards = async (token: string) =>
    okEnvelope(cashInfoResponse).parse((await t.call('user/cash_info', {}, { token })).body).data;
  const rows = (userId: number) =>
    withBankCards(t.db).selectFrom('bank_cards').selectAll().where('user_id', '=', userId).orderBy('id').execute();

  it('binds a card and shows it masked to its owner', async () => {
    const { token, user: u } = await user();
    expect(await cards(token)).toEqual([]);
    const { body } = await t.call('user/cash_save', CARD, { token });
    const saved = okEnvelope(bankCard).parse(body).data;
    expect(saved).toMatchObject({
      name: 'Erika Mustermann',
      card_number: '**** 1111',
      bank_account: '**** 3000',
      iban: 'DE **** 3000',
      swift_code: 'COBADEFFXXX',
      branch_number: '370 400 44',
      updated_at: null,
    });
    const listed = await cards(token);
    expect(listed).toEqual([saved]);
    // Nothing in the answer carries the full numbers.
    const text = JSON.stringify(listed);
    expect(text).not.toContain('4111111111111111');
    expect(text).not.toContain('DE89370400440532013000');
    expect(text).not.toContain('0532013000');
    // Stored normalised and encrypted under the data key, bound to the user: no clear number in the row.
    const [row] = await rows(u.id);
    if (!row) throw new Error('no row');
    expect(JSON.stringify(row)).not.toMatch(/4111111111111111|DE89370400440532013000|0532013000/);
    expect(row).not.toHaveProperty('card_number');
    expect(row).not.toHaveProperty('iban');
    expect(row).toMatchObject({ card_last4: '1111', deleted_at: null });
    const vault = new CardVault(DATA_KEY);
    expect(vault.open('card_number', u.id, row.card_number_enc)).toBe('4111111111111111');
    expect(vault.open('iban', u.id, row.iban_enc)).toBe('DE89370400440532013000');
    expect(vault.open('bank_account', u.id, row.bank_account_enc)).toBe('0532013000');
    expect(row.card_number_hash).toBe(vault.cardNumberHash(u.id, '4111111111111111'));
    // Another user's copy of the same number has another hash: the table does not show who shares a card.
    const other = await user();
    expect((await t.call('user/cash_save', CARD, { token: other.token })).body.type).toBe('ok');
    const [theirs] = await rows(other.user.id);
    expect(theirs?.card_number_hash).not.toBe(row.card_number_hash);
  });

  it('requires every bank field and refuses malformed ones, saving nothing', async () => {
    const { token, user: u } = await user();
    const required: Array<[keyof typeof CARD, string]> = [
      ['name', 'Please enter your full name'],
      ['bank_name', 'Please enter the name of the bank'],
      ['branch_name', 'Please enter the branch name'],
      ['branch_number', 'Please enter the branch number'],
      ['card_number', 'Please enter the card number'],
      ['bank_address', "Please enter the bank's address"],
      ['swift_code', 'Please enter the SWIFT code or Fedwire routing number'],
      ['cardholder_name', "Please enter the cardholder's name"],
      ['bank_account', 'Please enter the account number'],
      ['iban', 'Please enter the IBAN'],
      ['payee_address', "Please enter the payee's address"],
      ['postal_code', 'Please enter the postal code'],
    ];
    for (const [field, message] of required) {
      const { body } = await t.call('user/cash_save', { ...CARD, [field]: '  ' }, { token });
      expect(body, field).toMatchObject({ type: 'error', message, field });
      const { [field]: _, ...missing } = CARD;
      expect((await t.call('user/cash_save', missing, { token })).body, field).toMatchObject({ message, field });
    }
    const invalid: Array<[Partial<typeof CARD>, string, string]> = [
      [{ card_number: '4111 1111 1111 1112' }, 'Please enter a valid card number (12 to 19 digits)', 'card_number'],
      [{ card_number: '4111' }, 'Please enter a valid card number (12 to 19 digits)', 'card_number'],
      [{ iban: 'DE89 3704 0044 0532 0130 01' }, 'This IBAN is not valid – please check it', 'iban'],
      [
        { swift_code: 'COBADE' },
        'Please enter a valid SWIFT/BIC (8 or 11 characters) or Fedwire routing number (9 digits)',
        'swift_code',
      ],
      [{ postal_code: '!' }, 'Please enter a valid postal code', 'postal_code'],
      [{ bank_address: 'x'.repeat(201) }, 'The input is too long', 'bank_address'],
    ];
    for (const [patch, message, field] of invalid) {
      const { body } = await t.call('user/cash_save', { ...CARD, ...patch }, { token });
      expect(body, field).toMatchObject({ type: 'error', message, field });
    }
    const de = await t.call('user/cash_save', { ...CARD, iban: 'DE00' }, { token, lang: 'de' });
    expect(de.body.message).toBe('Diese IBAN ist ungültig – bitte prüfe sie');
    expect(await rows(u.id)).toEqual([]);
    // A Fedwire routing number instead of a SWIFT code is fine.
    const us = await t.call('user/cash_save', { ...CARD, swift_code: '021000021' }, { token });
    expect(us.body).toMatchObject({ type: 'ok', data: { swift_code: '021000021' } });
  });

  it('edits and unbinds only its own cards', async () => {
    const alice = await user();
    const bob = await user();
    const saved = okEnvelope(bankCard).parse((await t.call('user/cash_save', CARD, { token: alice.token })).body).data;
    const id = String(saved.id);

    // Bob sees nothing, cannot overwrite or delete Alice's card by its id.
    expect(await cards(bob.token)).toEqual([]);
    const overwrite = await t.call('user/cash_save', { ...CARD, id, bank_name: 'Evil Bank' }, { token: bob.token });
    expect(overwrite.body).toMatchObject({ type: 'error', message: 'This bank card was not found', field: 'id' });
    const remove = await t.call('user/cash_delete', { id }, { token: bob.token });
    expect(remove.body).toMatchObject({ type: 'error', message: 'This bank card was not found', field: 'id' });
    expect(await cards(alice.token)).toEqual([saved]);
    expect(await rows(bob.user.id)).toEqual([]);

    // Alice edits her card (the same number stays allowed for the card itself).
    t.clock.advance(1000);
    const edited = await t.call('user/cash_save', { ...CARD, id, bank_name: 'Deutsche Bank' }, { token: alice.token });
    expect(edited.body).toMatchObject({ type: 'ok', data: { id: saved.id, bank_name: 'Deutsche Bank' } });
    expect((await cards(alice.token))[0]?.updated_at).toBe(t.clock.now());

    const gone = await t.call('user/cash_delete', { id }, { token: alice.token });
    expect(gone.body.type).toBe('ok');
    expect(await cards(alice.token)).toEqual([]);
    expect((await t.call('user/cash_delete', { id }, { token: alice.token })).body.message).toBe(
      'This bank card was not found',
    );
    // A deleted card cannot be edited back to life; its number can be bound again as a new card.
    const revive = await t.call('user/cash_save', { ...CARD, id }, { token: alice.token });
    expect(revive.body.message).toBe('This bank card was not found');
    const again = await t.call('user/cash_save', CARD, { token: alice.token });
    expect(again.body.type).toBe('ok');
  });

  it('refuses the same card twice and more than the limit', async () => {
    const { token, user: u } = await user();
    expect((await t.call('user/cash_save', CARD, { token })).body.type).toBe('ok');
    const dup = await t.call('user/cash_save', { ...CARD, card_number: '4111-1111-1111-1111' }, { token });
    expect(dup.body).toMatchObject({ message: 'This card is already bound', field: 'card_number' });

    const second = okEnvelope(bankCard).parse(
      (await t.call('user/cash_save', { ...CARD, card_number: OTHER_CARDS[0] ?? '' }, { token })).body,
    ).data;
    // Editing another card to a number already bound is refused too.
    const clash = await t.call('user/cash_save', { ...CARD, id: String(second.id) }, { token });
    expect(clash.body.message).toBe('This card is already bound');

    for (const number of OTHER_CARDS.slice(1, MAX_BANK_CARDS - 1)) {
      const { body } = await t.call('user/cash_save', { ...CARD, card_number: number }, { token });
      expect(body.type, number).toBe('ok');
    }
    expect(await rows(u.id)).toHaveLength(MAX_BANK_CARDS);
    const over = await t.call(
      'user/cash_save',
      { ...CARD, card_number: OTHER_CARDS[MAX_BANK_CARDS - 1] ?? '' },
      { token },
    );
    expect(over.body).toMatchObject({
      type: 'error',
      message: 'You can bind at most 10 bank cards – delete one first',
    });
    expect(await rows(u.id)).toHaveLength(MAX_BANK_CARDS);

    // Another user may bind the same card number (a joint account).
    const other = await user();
    expect((await t.call('user/cash_save', CARD, { token: other.token })).body.type).toBe('ok');
  });

  it('holds the limit and uniqueness under concurrent saves', async () => {
    const { token, user: u } = await user();
    for (const number of OTHER_CARDS.slice(0, MAX_BANK_CARDS - 2)) {
      expect((await t.call('user/cash_save', { ...CARD, card_number: number }, { token })).body.type).toBe('ok');
    }
    // Two slots left, four different cards at once: exactly two get in.
    const numbers = [
      OTHER_CARDS[MAX_BANK_CARDS - 2],
      OTHER_CARDS[MAX_BANK_CARDS - 1],
      CARD.card_number,
      '4000056655665556',
    ];
    const results = await Promise.all(
      numbers.map((n) => t.call('user/cash_save', { ...CARD, card_number: n ?? '' }, { token })),
    );
    expect(results.filter((r) => r.body.type === 'ok')).toHaveLength(2);
    expect(await rows(u.id)).toHaveLength(MAX_BANK_CARDS);

    // The same new card twice at once on a fresh account: one binding.
    const fresh = await user();
    const twice = await Promise.all([1, 2].map(() => t.call('user/cash_save', CARD, { token: fresh.token })));
    expect(twice.map((r) => r.body.type).sort()).toEqual(['error', 'ok']);
    expect(twice.find((r) => r.body.type === 'error')?.body.message).toBe('This card is already bound');
    expect(await rows(fresh.user.id)).toHaveLength(1);
  });

  it('needs a session for every bank card call', async () => {
    for (const path of ['user/cash_save', 'user/cash_info', 'user/cash_delete'] as const) {
      expect((await t.call(path, {})).body, path).toMatchObject({ type: 999, code: 0 });
    }
  });
});
