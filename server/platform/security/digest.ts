import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** Hex sha256. Good enough for high-entropy secrets (session tokens) and short-lived codes bound to an address. */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** 32 random bytes, base64url: 256 bits, safe in headers and URLs. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** Constant-time comparison of two hex digests of equal length. */
export const sameDigest = (a: string, b: string): boolean =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** `length` characters drawn uniformly (crypto RNG) from `alphabet`. */
export const randomString = (alphabet: string, length: number): string => {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
};

export const DIGITS = '0123456789';
