import type { UserRow } from '../../platform/db/schema';
import type { CodeChannel } from './tables';

/** Where a code goes and what identifies an account: an e-mail address or a phone number. */
export type Contact =
  | { kind: 'email'; address: string; email: string }
  | { kind: 'mobile'; address: string; areaCode: string; mobile: string };

/** `email` comes already lowercased and trimmed from the protocol's emailField. */
export const emailContact = (email: string): Contact => ({ kind: 'email', address: email, email });

/**
 * National numbers are often typed with their trunk zero (German `0151…`); the international form drops it,
 * so `0151 12345678` and `151 12345678` are the same phone: `+4915112345678`.
 */
export const nationalNumber = (mobile: string): string => mobile.replace(/^0(?=\d)/, '');

export const mobileContact = (areaCode: string, mobile: string): Contact => {
  const national = nationalNumber(mobile);
  return { kind: 'mobile', address: `+${areaCode}${national}`, areaCode, mobile: national };
};

/** The contact named by a register/forget request (`type` says which identifier it carries). */
export const contactOf = (
  input: { type: 'email'; email: string } | { type: 'mobile'; area_code: string; mobile: string },
): Contact => (input.type === 'email' ? emailContact(input.email) : mobileContact(input.area_code, input.mobile));

/** A user's own contact for codes: the e-mail when set, else the phone (registration guarantees one). */
export const contactOfUser = (user: Pick<UserRow, 'email' | 'area_code' | 'mobile'>): Contact | null => {
  if (user.email) return emailContact(user.email);
  if (user.area_code && user.mobile) return mobileContact(user.area_code, user.mobile);
  return null;
};

export const channelOf = (contact: Contact): CodeChannel => (contact.kind === 'email' ? 'email' : 'sms');

/** The form field a contact came from, for error envelopes. */
export const fieldOf = (contact: Contact): 'email' | 'mobile' => contact.kind;

/** Shown back to the user when the address was not typed by them: `jo***@example.com`, `+49*******5678`. */
export const maskAddress = (contact: Contact): string => {
  if (contact.kind === 'email') {
    const [local = '', domain = ''] = contact.address.split('@');
    return `${local.slice(0, 2)}***@${domain}`;
  }
  const a = contact.address;
  return `${a.slice(0, contact.areaCode.length + 1)}${'*'.repeat(Math.max(0, a.length - contact.areaCode.length - 5))}${a.slice(-4)}`;
};
