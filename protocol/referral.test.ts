import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REFERRAL_SHARE,
  inviteLinkPath,
  myAccountReturnRequest,
  myInviteListRequest,
  REFERRAL_RATIO_MAX,
  referralCalls,
  setBonusRequest,
} from './referral';

describe('referral protocol', () => {
  it('serves the SPEC 7 calls with their methods; only the leaderboard goes without a session', () => {
    const table = Object.fromEntries(Object.entries(referralCalls).map(([path, c]) => [path, [c.method, c.auth]]));
    expect(table).toEqual({
      'user/invite': ['GET', true],
      'user/my_invite_list': ['POST', true],
      'user/invite_list': ['POST', false],
      'user/my_account_return': ['POST', true],
      'user/my_poster': ['GET', true],
      'user/my_share': ['GET', true],
      'bonus/setBonus': ['POST', true],
    });
  });

  it('publishes the default share and the ceiling as 4-decimal fractions', () => {
    expect(DEFAULT_REFERRAL_SHARE).toBe('0.2000');
    expect(REFERRAL_RATIO_MAX).toBe('0.5000');
  });

  it('takes a bonus as a fraction with at most 4 decimals; anything else is referralRatioInvalid', () => {
    expect(setBonusRequest.parse({ bonus: ' 0.05 ' })).toEqual({ bonus: '0.05' });
    for (const bonus of ['', '5%', '-0.1', '0.12345', '1e-2', '0,1']) {
      const parsed = setBonusRequest.safeParse({ bonus });
      expect(parsed.success, bonus).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe('referralRatioInvalid');
    }
    expect(setBonusRequest.safeParse({}).error?.issues[0]?.message).toBe('referralRatioInvalid');
  });

  it('pages lists by before_id', () => {
    expect(myInviteListRequest.parse({ limit: '5', before_id: '12' })).toEqual({ limit: 5, before_id: 12 });
    expect(myAccountReturnRequest.parse({})).toEqual({});
    expect(myInviteListRequest.safeParse({ limit: '0' }).success).toBe(false);
  });

  it('builds the invite link path with the code escaped', () => {
    expect(inviteLinkPath('AB12CD34')).toBe('/pages/user/register?invite=AB12CD34');
    expect(inviteLinkPath('A B&C')).toBe('/pages/user/register?invite=A%20B%26C');
  });
});
