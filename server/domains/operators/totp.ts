import { Secret, TOTP } from 'otpauth';

/**
 * The second factor of the console login: RFC 6238 TOTP (SHA-1, 6 digits, 30 s), what every authenticator app speaks.
 * A code is accepted one step either side of the server's time (clocks drift, typing takes a while), and never twice:
 * the operator's last used step is kept, and a code of that step or an earlier one is refused, so a code seen over a
 * shoulder or in a proxy log cannot be used again. The time is always passed in (the server's clock, a test's).
 */

export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of the current one. */
export const TOTP_WINDOW = 1;
export const TOTP_ISSUER = 'TradeWave Ops';

/** A new random secret (160 bits, RFC 4226's recommendation), base32 as authenticator apps take it. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

const totpOf = (secret: string, label = 'operator') =>
  new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_S,
    secret: Secret.fromBase32(secret),
  });

/** The otpauth:// URI an authenticator app reads (as a QR code or pasted). */
export const totpUri = (name: string, secret: string): string => totpOf(secret, name).toString();

/** The time step of a moment (ms). */
export const totpStep = (at: number): number => TOTP.counter({ period: TOTP_PERIOD_S, timestamp: at });

/** The code of `secret` at `at` (ms): what the operator's app shows then (tests and the e2e login use it). */
export const totpCode = (secret: string, at: number): string => totpOf(secret).generate({ timestamp: at });

export type TotpCheck = { ok: true; step: number } | { ok: false; reason: 'wrong' | 'reused' };

/**
 * Checks `code` against `secret` at `at`: right within ±TOTP_WINDOW steps and of a later step than `lastStep` (the
 * step of the operator's last accepted code, null when none). The caller stores the returned step, conditionally on
 * the stored one still being older, so two logins racing with one code cannot both pass.
 */
export function checkTotp(secret: string, code: string, at: number, lastStep: number | null): TotpCheck {
  if (!/^\d{6}$/.test(code)) return { ok: false, reason: 'wrong' };
  const delta = totpOf(secret).validate({ token: code, timestamp: at, window: TOTP_WINDOW });
  if (delta === null) return { ok: false, reason: 'wrong' };
  const step = totpStep(at) + delta;
  if (lastStep !== null && step <= lastStep) return { ok: false, reason: 'reused' };
  return { ok: true, step };
}
