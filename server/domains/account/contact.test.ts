import { describe, expect, it } from 'vitest';
import { contactOf, contactOfUser, emailContact, maskAddress, mobileContact } from './contact';

describe('contacts', () => {
  it('phone addresses are +<area><national number without trunk zero>', () => {
    expect(mobileContact('49', '015112345678')).toEqual({
      kind: 'mobile',
      address: '+4915112345678',
      areaCode: '49',
      mobile: '15112345678',
    });
    expect(mobileContact('49', '15112345678').address).toBe('+4915112345678');
    expect(mobileContact('1', '2025550123').address).toBe('+12025550123');
  });

  it('reads register and forget forms', () => {
    expect(contactOf({ type: 'email', email: 'a@b.de' })).toEqual(emailContact('a@b.de'));
    expect(contactOf({ type: 'mobile', area_code: '43', mobile: '6641234567' }).address).toBe('+436641234567');
  });

  it("a user's own contact prefers the e-mail", () => {
    expect(contactOfUser({ email: 'x@y.de', area_code: '49', mobile: '151' })?.address).toBe('x@y.de');
    expect(contactOfUser({ email: null, area_code: '49', mobile: '15112345678' })?.address).toBe('+4915112345678');
    expect(contactOfUser({ email: null, area_code: null, mobile: null })).toBeNull();
  });

  it('masks addresses shown back to the user', () => {
    expect(maskAddress(emailContact('johndoe@example.com'))).toBe('jo***@example.com');
    expect(maskAddress(emailContact('j@example.com'))).toBe('j***@example.com');
    expect(maskAddress(mobileContact('49', '15112345678'))).toBe('+49*******5678');
  });
});
