import { z } from 'zod/mini';
import { call, emptyResponse, none } from './call-spec';
import { recordIdField } from './fields';

/** Bank cards a user may keep at once (deleted ones do not count). */
export const MAX_BANK_CARDS = 10;

/** Luhn (ISO/IEC 7812) check digit over a string of digits. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** A card number as stored: digits only (spaces and dashes as typed are dropped). */
export const normaliseCardNumber = (v: string) => v.replace(/[\s-]/g, '');
export const isCardNumber = (digits: string) => /^\d{12,19}$/.test(digits) && luhnValid(digits);

/** An IBAN as stored: upper case without spaces. */
export const normaliseIban = (v: string) => v.replace(/\s/g, '').toUpperCase();

/** ISO 13616: country, two check digits, up to 30 letters or digits, and the whole number mod 97 is 1. */
export function isIban(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  let rest = 0;
  for (const ch of iban.slice(4) + iban.slice(0, 4)) {
    const value = ch >= 'A' ? ch.charCodeAt(0) - 55 : ch.charCodeAt(0) - 48;
    rest = value > 9 ? (rest * 100 + value) % 97 : (rest * 10 + value) % 97;
  }
  return rest === 1;
}

const BIC_RE = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

/** A US Fedwire (ABA) routing number: nine digits with the 3-7-1 weighted check digit. */
export function isAbaRouting(v: string): boolean {
  if (!/^\d{9}$/.test(v) || /^0+$/.test(v)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (v.charCodeAt(i) - 48) * weights[i]!;
  return sum % 10 === 0;
}

/** SPEC 3 "Swift code (SWIFT/Fedwire)": a SWIFT/BIC of 8 or 11 characters, or a 9-digit Fedwire routing number. */
export const isSwiftOrFedwire = (v: string) => BIC_RE.test(v) || isAbaRouting(v);
export const normaliseSwift = (v: string) => v.replace(/\s/g, '').toUpperCase();

const required = (key: string, max: number) =>
  z.string({ error: key }).check(z.trim(), z.minLength(1, { error: key }), z.maxLength(max, { error: 'tooLong' }));

/** Letters, digits, spaces and dashes, starting with a letter or digit. */
const codeLike = (min: number, max: number) => new RegExp(`^[A-Za-z0-9][A-Za-z0-9 -]{${min - 1},${max - 1}}$`);

/**
 * user/cash_save (SPEC 5 "Bank bind: all bank fields are required"): the twelve fields of SPEC 3, in the order the
 * form shows them, each trimmed and bounded; card number (Luhn), IBAN (mod 97) and SWIFT/Fedwire are checked.
 * With `id` it replaces the fields of one of the user's own cards.
 */
export const cashSaveRequest = z.object({
  id: z.optional(recordIdField),
  name: required('bankOwnerNameRequired', 100),
  bank_name: required('bankNameRequired', 100),
  branch_name: required('bankBranchRequired', 100),
  branch_number: required('bankBranchNumberRequired', 20).check(
    z.regex(codeLike(1, 20), { error: 'bankBranchNumberInvalid' }),
  ),
  card_number: z
    .pipe(required('bankCardNumberRequired', 40), z.transform(normaliseCardNumber))
    .check(z.refine(isCardNumber, { error: 'bankCardNumberInvalid' })),
  bank_address: required('bankAddressRequired', 200),
  swift_code: z
    .pipe(required('bankSwiftRequired', 20), z.transform(normaliseSwift))
    .check(z.refine(isSwiftOrFedwire, { error: 'bankSwiftInvalid' })),
  cardholder_name: required('bankCardholderRequired', 100),
  bank_account: required('bankAccountRequired', 40).check(z.regex(codeLike(3, 40), { error: 'bankAccountInvalid' })),
  iban: z
    .pipe(required('bankIbanRequired', 50), z.transform(normaliseIban))
    .check(z.refine(isIban, { error: 'bankIbanInvalid' })),
  payee_address: required('bankPayeeAddressRequired', 200),
  postal_code: required('bankPostalCodeRequired', 12).check(
    z.regex(codeLike(2, 12), { error: 'bankPostalCodeInvalid' }),
  ),
});
export type CashSaveRequest = z.input<typeof cashSaveRequest>;

/** A bound card as its owner sees it: card number, bank account and IBAN masked to their last four characters. */
export const bankCard = z.object({
  id: z.number(),
  name: z.string(),
  bank_name: z.string(),
  branch_name: z.string(),
  branch_number: z.string(),
  card_number: z.string(),
  bank_address: z.string(),
  swift_code: z.string(),
  cardholder_name: z.string(),
  bank_account: z.string(),
  iban: z.string(),
  payee_address: z.string(),
  postal_code: z.string(),
  created_at: z.number(),
  updated_at: z.nullable(z.number()),
});
export type BankCard = z.infer<typeof bankCard>;

export const cashInfoResponse = z.array(bankCard);
export const cashSaveResponse = bankCard;
export const cashDeleteRequest = z.object({ id: recordIdField });

/** The bank card calls (its domain names them in its contract; server/domains/compose.ts joins every table). */
export const bankCardCalls = {
  'user/cash_save': call('POST', true, cashSaveRequest, cashSaveResponse),
  'user/cash_info': call('POST', true, none, cashInfoResponse),
  'user/cash_delete': call('POST', true, cashDeleteRequest, emptyResponse),
} as const;
