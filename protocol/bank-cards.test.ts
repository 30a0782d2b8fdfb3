// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { cashSaveRequest, isAbaRouting, isCardNumber, isIban, isSwiftOrFedwire, luhnValid } from './bank-cards';

const VALID_CARD = {
  name: 'Erika Mustermann',
  bank_name: 'Commerzbank',
  branch_name: 'Köln Innenstadt',
  branch_number: '37040044',
  card_number: '4111 1111 1111 1111',
  bank_address: 'Unter Sachsenhausen 21, 50667 Köln',
  swift_code: 'cobadeffxxx',
  cardholder_name: 'ERIKA MUSTERMANN',
  bank_account: '0532013000',
  iban: 'de89 3704 0044 0532 0130 00',
  payee_address: 'Heidestraße 17, 51147 Köln',
  postal_code: '51147',
};

describe('bank card checks', () => {
  it('applies Luhn to card numbers of 12 to 19 digits', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(isCardNumber('5500000000000004')).toBe(true);
    expect(isCardNumber('4012888888881881')).toBe(true);
    expect(isCardNumber('00000000000')).toBe(false);
    expect(isCardNumber('41111111111111111111')).toBe(false);
    expect(isCardNumber('4111-1111')).toBe(false);
  });

  it('checks IBANs by mod 97', () => {
    for (const iban of ['DE89370400440532013000', 'GB82WEST12345698765432', 'FR1420041010050500013M02606']) {
      expect(isIban(iban), iban).toBe(true);
    }
    expect(isIban('DE89370400440532013001')).toBe(false);
    expect(isIban('DE98370400440532013000')).toBe(false);
    expect(isIban('DE8937040044')).toBe(false);
    expect(isIban('de89370400440532013000')).toBe(false);
  });

  it('accepts SWIFT/BIC of 8 or 11 characters and Fedwire routing numbers', () => {
    for (const code of ['DEUTDEFF', 'DEUTDEFF500', 'NWBKGB2L', '021000021', '011000015']) {
      expect(isSwiftOrFedwire(code), code).toBe(true);
    }
    for (const code of ['DEUTDEF', 'DEUTDEFF5', 'DEUT1EFF', '021000022', '000000000', '12345678']) {
      expect(isSwiftOrFedwire(code), code).toBe(false);
    }
    expect(isAbaRouting('021000021')).toBe(true);
  });
});

describe('cash_save request', () => {
  const firstIssue = (v: unknown) => {
    const r = cashSaveRequest.safeParse(v);
    return r.success ? null : { message: r.error.issues[0]?.message, path: r.error.issues[0]?.path.join('.') };
  };

  it('normalises card number, SWIFT and IBAN', () => {
    expect(cashSaveRequest.parse({ ...VALID_CARD, name: '  Erika Mustermann ' })).toMatchObject({
      name: 'Erika Mustermann',
      card_number: '4111111111111111',
      swift_code: 'COBADEFFXXX',
      iban: 'DE89370400440532013000',
    });
    expect(cashSaveRequest.parse({ ...VALID_CARD, id: '7' }).id).toBe(7);
  });

  it('requires every field of SPEC 3, each with its own message', () => {
    const required: Record<string, string> = {
      name: 'bankOwnerNameRequired',
      bank_name: 'bankNameRequired',
      branch_name: 'bankBranchRequired',
      branch_number: 'bankBranchNumberRequired',
      card_number: 'bankCardNumberRequired',
      bank_address: 'bankAddressRequired',
      swift_code: 'bankSwiftRequired',
      cardholder_name: 'bankCardholderRequired',
      bank_account: 'bankAccountRequired',
      iban: 'bankIbanRequired',
      payee_address: 'bankPayeeAddressRequired',
      postal_code: 'bankPostalCodeRequired',
    };
    for (const [field, message] of Object.entries(required)) {
      expect(firstIssue({ ...VALID_CARD, [field]: '   ' })).toEqual({ message, path: field });
      const { [field]: _, ...missing } = VALID_CARD as Record<string, string>;
      expect(firstIssue(missing)).toEqual({ message, path: field });
    }
  });

  it('refuses malformed values', () => {
    expect(firstIssue({ ...VALID_CARD, card_number: '4111 1111 1111 1112' })?.message).toBe('bankCardNumberInvalid');
    expect(firstIssue({ ...VALID_CARD, iban: 'DE89 3704 0044 0532 0130 01' })?.message).toBe('bankIbanInvalid');
    expect(firstIssue({ ...VALID_CARD, swift_code: 'COBA' })?.message).toBe('bankSwiftInvalid');
    expect(firstIssue({ ...VALID_CARD, branch_number: '37#04' })?.message).toBe('bankBranchNumberInvalid');
    expect(firstIssue({ ...VALID_CARD, bank_account: '12' })?.message).toBe('bankAccountInvalid');
    expect(firstIssue({ ...VALID_CARD, postal_code: '5' })?.message).toBe('bankPostalCodeInvalid');
    expect(firstIssue({ ...VALID_CARD, bank_address: 'x'.repeat(201) })?.message).toBe('tooLong');
    expect(firstIssue({ ...VALID_CARD, id: 'abc' })).toEqual({ message: 'invalidInput', path: 'id' });
  });
});
