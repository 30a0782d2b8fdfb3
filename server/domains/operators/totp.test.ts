import { describe, expect, it } from 'vitest';
import { checkTotp, newTotpSecret, TOTP_PERIOD_S, totpCode, totpStep, totpUri } from './totp';

/** The TOTP check of the console login on a driven clock: window, replay, format. */

// RFC 6238's SHA-1 test key ("12345678901234567890") in base32, and its published codes (last six digits).
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const STEP = TOTP_PERIOD_S * 1000;

describe('totp', () => {
  it('computes the codes of RFC 6238 (SHA-1)', () => {
    expect(totpCode(RFC_SECRET, 59_000)).toBe('287082');
    expect(totpCode(RFC_SECRET, 1_111_111_109_000)).toBe('081804');
    expect(totpCode(RFC_SECRET, 1_234_567_890_000)).toBe('005924');
    expect(totpCode(RFC_SECRET, 2_000_000_000_000)).toBe('279037');
  });

  it('accepts the current code and one step either side, nothing further', () => {
    const at = 1_700_000_000_000;
    const code = totpCode(RFC_SECRET, at);
    expect(checkTotp(RFC_SECRET, code, at, null)).toEqual({ ok: true, step: totpStep(at) });
    // The operator's phone is one step behind or ahead of the server.
    expect(checkTotp(RFC_SECRET, code, at + STEP, null)).toEqual({ ok: true, step: totpStep(at) });
    expect(checkTotp(RFC_SECRET, code, at - STEP, null)).toEqual({ ok: true, step: totpStep(at) });
    expect(checkTotp(RFC_SECRET, code, at + 2 * STEP, null)).toEqual({ ok: false, reason: 'wrong' });
    expect(checkTotp(RFC_SECRET, code, at - 2 * STEP, null)).toEqual({ ok: false, reason: 'wrong' });
  });

  it('refuses a code of the last used step or an earlier one, accepts a later one', () => {
    const at = 1_700_000_000_000;
    const first = checkTotp(RFC_SECRET, totpCode(RFC_SECRET, at), at, null);
    if (!first.ok) throw new Error('the first code must pass');
    // The same code again, at once and still inside its window.
    expect(checkTotp(RFC_SECRET, totpCode(RFC_SECRET, at), at, first.step)).toEqual({ ok: false, reason: 'reused' });
    expect(checkTotp(RFC_SECRET, totpCode(RFC_SECRET, at), at + STEP, first.step)).toEqual({
      ok: false,
      reason: 'reused',
    });
    // An older code still inside the window is no way round it.
    expect(checkTotp(RFC_SECRET, totpCode(RFC_SECRET, at - STEP), at, first.step)).toEqual({
      ok: false,
      reason: 'reused',
    });
    // The next step's code passes.
    const next = at + STEP;
    expect(checkTotp(RFC_SECRET, totpCode(RFC_SECRET, next), next, first.step)).toEqual({
      ok: true,
      step: first.step + 1,
    });
  });

  it('refuses codes that are not six digits and codes of another secret', () => {
    const at = 1_700_000_000_000;
    const code = totpCode(RFC_SECRET, at);
    expect(checkTotp(RFC_SECRET, ` ${code}`, at, null)).toEqual({ ok: false, reason: 'wrong' });
    expect(checkTotp(RFC_SECRET, code.slice(1), at, null)).toEqual({ ok: false, reason: 'wrong' });
    expect(checkTotp(RFC_SECRET, `${code}0`, at, null)).toEqual({ ok: false, reason: 'wrong' });
    expect(checkTotp(newTotpSecret(), code, at, null).ok).toBe(false);
  });

  it('makes 160-bit secrets and an otpauth URI authenticator apps read', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const uri = new URL(totpUri('alice', secret));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
    expect(decodeURIComponent(uri.pathname)).toContain('alice');
  });
});
