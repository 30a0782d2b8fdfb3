import { describe, expect, it } from 'vitest';
import { maskTail, toBankCard } from './cards';
import { CardVault } from './vault';

describe('bank card masking', () => {
  it('keeps the last four letters or digits behind a fixed mask', () => {
    expect(maskTail('4111111111111111')).toBe('**** 1111');
    expect(maskTail('378282246310005')).toBe('**** 0005');
    // Separators do not count, and the mask does not reveal the length.
    expect(maskTail('123-456-78')).toBe('**** 5678');
    expect(maskTail('12')).toBe('**** 12');
    expect(maskTail('DE89370400440532013000', 'DE ')).toBe('DE **** 3000');
  });

  it('shows the owner every field but the three numbers in full', () => {
    const vault = new CardVault(new Uint8Array(32).fill(7));
    const card = toBankCard(
      {
        id: 1,
        user_id: 9,
        name: 'Erika Mustermann',
        bank_name: 'Commerzbank',
        branch_name: 'Köln',
        branch_number: '37040044',
        card_number_enc: vault.seal('card_number', 9, '4111111111111111'),
        card_number_hash: vault.cardNumberHash(9, '4111111111111111'),
        card_last4: '1111',
        bank_address: 'Köln',
        swift_code: 'COBADEFFXXX',
        cardholder_name: 'ERIKA MUSTERMANN',
        bank_account_enc: vault.seal('bank_account', 9, '0532013000'),
        iban_enc: vault.seal('iban', 9, 'DE89370400440532013000'),
        payee_address: 'Köln',
        postal_code: '51147',
        created_at: 1,
        updated_at: null,
        deleted_at: null,
      },
      vault,
    );
    expect(card).toMatchObject({ card_number: '**** 1111', bank_account: '**** 3000', iban: 'DE **** 3000' });
    expect(card).not.toHaveProperty('user_id');
    expect(card).not.toHaveProperty('deleted_at');
    expect(JSON.stringify(card)).not.toMatch(/4111111111111111|0532013000|DE89370400440532013000|xc1\./);
  });
});
