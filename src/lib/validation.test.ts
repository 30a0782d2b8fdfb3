// @vitest-environment node
import { describe, expect, it } from 'vitest';
import errorsDe from '../../locales/de/errors.json';
import errorsEn from '../../locales/en/errors.json';
import { fundPasswordRequest, registerRequest, updatePasswordRequest } from '../../protocol/account';
import { registerValues } from '../features/account/pages/user/register';
import { check } from './validation';

const contact = { type: 'email' as const, areaIso: '', dial: '', mobile: '', email: 'ann@example.com', code: '123456' };
const form = { password: 'secret1', repassword: 'secret1', invite: 'WELCOME1', agree: true };

const errorsOf = (schema: Parameters<typeof check>[0], values: unknown) => {
  const r = check(schema, values);
  return r.ok ? {} : r.errors;
};

describe('register (SPEC 5)', () => {
  it('accepts a complete, well-formed e-mail registration', () => {
    const r = check(registerRequest, registerValues(contact, form));
    expect(r.ok).toBe(true);
  });

  it('accepts a phone registration and strips a leading + from the area code', () => {
    const phone = { ...contact, type: 'mobile' as const, dial: '+49', mobile: '15123456789' };
    const r = check(registerRequest, registerValues(phone, form));
    expect(r.ok && r.data.type === 'mobile' && r.data.area_code).toBe('49');
  });

  it('requires every field', () => {
    const empty = { ...contact, email: '', code: '' };
    const e = errorsOf(
      registerRequest,
      registerValues(empty, { password: '', repassword: '', invite: '', agree: false }),
    );
    expect(e).toMatchObject({
      email: 'emailRequired',
      code: 'codeRequired',
      password: 'passwordRequired',
      repassword: 'repasswordRequired',
      invite_code: 'inviteRequired',
      agree: 'agreementRequired',
    });
    const phone = { ...contact, type: 'mobile' as const, dial: '49', mobile: '' };
    expect(errorsOf(registerRequest, registerValues(phone, form)).mobile).toBe('phoneRequired');
  });

  it('rejects a malformed phone number and e-mail address', () => {
    expect(errorsOf(registerRequest, registerValues({ ...contact, email: 'ann@example' }, form)).email).toBe(
      'emailInvalid',
    );
    expect(errorsOf(registerRequest, registerValues({ ...contact, email: 'a b@x.de' }, form)).email).toBe(
      'emailInvalid',
    );
    const phone = { ...contact, type: 'mobile' as const, dial: '49', mobile: '12a4' };
    expect(errorsOf(registerRequest, registerValues(phone, form)).mobile).toBe('phoneInvalid');
  });

  it('needs a password of at least 6 characters, typed twice the same', () => {
    expect(
      errorsOf(registerRequest, registerValues(contact, { ...form, password: '12345', repassword: '12345' })).password,
    ).toBe('passwordMin');
    expect(errorsOf(registerRequest, registerValues(contact, { ...form, repassword: 'secret2' })).repassword).toBe(
      'passwordMismatch',
    );
  });

  it('needs the user agreement ticked', () => {
    expect(errorsOf(registerRequest, registerValues(contact, { ...form, agree: false })).agree).toBe(
      'agreementRequired',
    );
  });
});

describe('change password (SPEC 5)', () => {
  it('requires old, new and repeat, and new must equal repeat', () => {
    expect(errorsOf(updatePasswordRequest, { old_password: '', password: '', repassword: '' })).toEqual({
      old_password: 'oldPasswordRequired',
      password: 'passwordRequired',
      repassword: 'repasswordRequired',
    });
    expect(errorsOf(updatePasswordRequest, { old_password: 'old', password: 'abcdef', repassword: 'abcdeg' })).toEqual({
      repassword: 'passwordMismatch',
    });
    expect(errorsOf(updatePasswordRequest, { old_password: 'old', password: 'abc', repassword: 'abc' }).password).toBe(
      'passwordMin',
    );
    expect(check(updatePasswordRequest, { old_password: 'old', password: 'abcdef', repassword: 'abcdef' }).ok).toBe(
      true,
    );
  });
});

describe('fund password (SPEC 5, 9)', () => {
  it('is exactly 6 digits and must be repeated', () => {
    const base = { mode: 'password', login_password: 'secret1' };
    expect(check(fundPasswordRequest, { ...base, password: '123456', repassword: '123456' }).ok).toBe(true);
    expect(errorsOf(fundPasswordRequest, { ...base, password: '12345', repassword: '12345' }).password).toBe(
      'fundPasswordFormat',
    );
    expect(errorsOf(fundPasswordRequest, { ...base, password: '1234567', repassword: '1234567' }).password).toBe(
      'fundPasswordFormat',
    );
    expect(errorsOf(fundPasswordRequest, { ...base, password: '12a456', repassword: '12a456' }).password).toBe(
      'fundPasswordFormat',
    );
    expect(errorsOf(fundPasswordRequest, { ...base, password: '123456', repassword: '654321' }).repassword).toBe(
      'passwordMismatch',
    );
  });

  it('needs a proof: the login password or a 6-digit code', () => {
    expect(
      errorsOf(fundPasswordRequest, { mode: 'password', login_password: '', password: '123456', repassword: '123456' }),
    ).toMatchObject({ login_password: 'passwordRequired' });
    expect(
      errorsOf(fundPasswordRequest, { mode: 'code', code: '12', password: '123456', repassword: '123456' }),
    ).toMatchObject({
      code: 'codeInvalid',
    });
    expect(
      check(fundPasswordRequest, { mode: 'code', code: '123456', password: '123456', repassword: '123456' }).ok,
    ).toBe(true);
  });
});

describe('messages', () => {
  it('every key the schemas report exists in the errors namespace (de and en)', () => {
    const reported = new Set<string>();
    const cases: [Parameters<typeof check>[0], unknown][] = [
      [
        registerRequest,
        registerValues({ ...contact, email: '' }, { password: '1', repassword: '', invite: '', agree: false }),
      ],
      [registerRequest, registerValues({ ...contact, email: 'x' }, { ...form, repassword: 'other' })],
      [updatePasswordRequest, { old_password: '', password: '', repassword: '' }],
      [fundPasswordRequest, { mode: 'code', code: '', password: '1', repassword: '' }],
    ];
    for (const [schema, values] of cases) {
      const r = check(schema, values);
      if (!r.ok) for (const v of Object.values(r.errors)) if (v) reported.add(v);
    }
    expect(reported.size).toBeGreaterThan(6);
    for (const key of reported) {
      expect(errorsDe).toHaveProperty(key);
      expect(errorsEn).toHaveProperty(key);
    }
  });
});
