// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import {
  fetchInviteInfo,
  fetchInviteLeaderboard,
  fetchMyInvitees,
  fetchMyRebates,
  fetchPoster,
  fetchShareInfo,
  setPartnerBonus,
} from './referral';
import { failAnswer, fakeApiServer, okAnswer } from './testing';

// The envelope rules are core/api/client.test.ts's; here only the referral calls': paths and methods, the paging
// fields sent, answers parsed by the contract, and a refused bonus told with its field.

const server = fakeApiServer();
const partner = {
  status: 'active',
  auth_code: 'P-7QX2',
  ratio: '0.3000',
  bonus: '0.0500',
  granted_at: 1,
  updated_at: 2,
};
const info = {
  invite_code: 'AB12CD',
  link_path: '/pages/user/register?invite=AB12CD',
  invitees: 3,
  verified_invitees: 1,
  share: { ratio: '0.2000', bonus: '0.0000', default_ratio: '0.2000' },
  partner: null,
};

describe('referral calls', () => {
  it('reads the invite info, the poster, the share text and the leaderboard', async () => {
    server.answer = (path) =>
      okAnswer(
        path === 'user/invite'
          ? info
          : path === 'user/invite_list'
            ? { items: [{ rank: 1, name: 'a***@e.com', verified_invitees: 2 }] }
            : path === 'user/my_poster'
              ? { invite_code: 'AB12CD', link_path: info.link_path, display_name: 'a***' }
              : { invite_code: 'AB12CD', link_path: info.link_path },
      );
    expect(await fetchInviteInfo()).toEqual(info);
    expect(await fetchInviteLeaderboard()).toEqual({ items: [{ rank: 1, name: 'a***@e.com', verified_invitees: 2 }] });
    expect(await fetchPoster()).toEqual({ invite_code: 'AB12CD', link_path: info.link_path, display_name: 'a***' });
    expect(await fetchShareInfo()).toEqual({ invite_code: 'AB12CD', link_path: info.link_path });
    expect(server.sent).toEqual([
      { path: 'user/invite', method: 'GET', form: {} },
      { path: 'user/invite_list', method: 'POST', form: {} },
      { path: 'user/my_poster', method: 'GET', form: {} },
      { path: 'user/my_share', method: 'GET', form: {} },
    ]);
  });

  it('pages the invitees and the rebates by cursor', async () => {
    server.answer = (path) =>
      okAnswer(
        path === 'user/my_invite_list'
          ? { items: [{ id: 9, name: 'b***', registered_at: 5, verified: true }], next_before_id: 9 }
          : {
              totals: [{ currency: 'USDT', amount: '1.500000' }],
              items: [
                {
                  id: 4,
                  created_at: 6,
                  currency: 'USDT',
                  amount: '0.500000',
                  role: 'referral',
                  invitee: 'b***',
                  source: 'spot',
                  fee_posting_id: 77,
                },
              ],
              next_before_id: null,
            },
      );
    const invitees = await fetchMyInvitees(null);
    expect(invitees).toMatchObject({ items: [{ verified: true }], next_before_id: 9 });
    await fetchMyInvitees(9, 50);
    const rebates = await fetchMyRebates(null);
    expect(rebates).toMatchObject({ totals: [{ currency: 'USDT', amount: '1.500000' }] });
    await fetchMyRebates(4);
    expect(server.sent).toEqual([
      { path: 'user/my_invite_list', method: 'POST', form: { limit: '20' } },
      { path: 'user/my_invite_list', method: 'POST', form: { limit: '50', before_id: '9' } },
      { path: 'user/my_account_return', method: 'POST', form: { limit: '20' } },
      { path: 'user/my_account_return', method: 'POST', form: { limit: '20', before_id: '4' } },
    ]);
  });

  it('sets the bonus; a refusal names its field, a broken answer is a failure', async () => {
    server.answer = () => okAnswer(partner);
    expect(await setPartnerBonus('0.0500')).toEqual({ ok: true, partner });
    expect(server.sent.at(-1)).toEqual({ path: 'bonus/setBonus', method: 'POST', form: { bonus: '0.0500' } });
    server.answer = () => failAnswer('The bonus cannot be above your ratio', 'bonus');
    expect(await setPartnerBonus('0.4000')).toEqual({
      ok: false,
      message: 'The bonus cannot be above your ratio',
      field: 'bonus',
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    server.answer = () => okAnswer({ ...partner, status: 'lifetime' });
    expect(await setPartnerBonus('0.0500')).toMatchObject({ ok: false });
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });
});
