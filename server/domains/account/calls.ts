import type { accountCalls } from '../../../protocol/account';
import type { antiPhishingCalls } from '../../../protocol/anti-phishing';
import type { deviceCalls } from '../../../protocol/devices';
import { type CallHandlers, requireSession } from '../../platform/http/calls';
import { antiPhishingCode, setAntiPhishing } from './anti-phishing';
import { AREA_CODES } from './area-codes';
import { requestCode, requestOwnCode } from './code-requests';
import { emailContact, mobileContact } from './contact';
import { endOtherSessions, endSession, signedInDevices } from './devices';
import { hasFundPassword, setFundPassword } from './fund-password';
import { login } from './login';
import { changePassword, resetForgottenPassword } from './login-password';
import { center, center2, getLang, setLang } from './profile';
import { register } from './registration';
import type { AccountServices } from './services';
import { assertContactFree } from './users';

/** The account area's calls: codes, registration, login, sessions, passwords, fund password, language. */
export function accountHandlers(
  s: AccountServices,
): CallHandlers<typeof accountCalls & typeof deviceCalls & typeof antiPhishingCalls> {
  return {
    email_send: (input, ctx) => requestCode(s, emailContact(input.email), input.scene, ctx),
    sms_send: (input, ctx) => requestCode(s, mobileContact(input.area_code, input.mobile), input.scene, ctx),
    sms_other_mail: (input, ctx) => requestOwnCode(s, requireSession(ctx), input.scene, ctx),
    area_code: async () => [...AREA_CODES],
    'user/check_mobile': async (input) => {
      await assertContactFree(s.db, mobileContact(input.area_code, input.mobile));
      return { available: true };
    },
    'user/check_email': async (input) => {
      await assertContactFree(s.db, emailContact(input.email));
      return { available: true };
    },
    'user/register': (input, ctx) => register(s, input, ctx),
    'user/login': (input, ctx) => login(s, input, ctx),
    'user/logout': async (_input, ctx) => {
      await s.sessions.revoke(requireSession(ctx).id);
      return {};
    },
    'user/forget': async (input) => {
      await resetForgottenPassword(s, input);
      return {};
    },
    'set/lang': async (input, ctx) => ({ lang: await setLang(s, ctx.session, input.lang) }),
    'get/lang': async (_input, ctx) => ({ lang: await getLang(s, ctx.session, ctx.lang) }),
    'user/center': (_input, ctx) => center(s, requireSession(ctx)),
    'user/center2': (_input, ctx) => center2(s, requireSession(ctx)),
    'safe/update_password': async (input, ctx) => {
      await changePassword(s, requireSession(ctx), input, ctx.ip);
      return {};
    },
    'user/has_password': async (_input, ctx) => ({ has_password: await hasFundPassword(s, requireSession(ctx)) }),
    'user/e_pwd': async (input, ctx) => {
      await setFundPassword(s, requireSession(ctx), input, ctx.ip);
      return {};
    },
    'user/sessions': (_input, ctx) => signedInDevices(s, requireSession(ctx)),
    'user/sessions/end': async (input, ctx) => {
      await endSession(s, requireSession(ctx), input.id);
      return {};
    },
    'user/sessions/end_others': async (_input, ctx) => ({ ended: await endOtherSessions(s, requireSession(ctx)) }),
    'user/anti_phishing': (_input, ctx) => antiPhishingCode(s, requireSession(ctx)),
    'user/anti_phishing/set': (input, ctx) => setAntiPhishing(s, requireSession(ctx), input.code),
    'user/anti_phishing/clear': async (_input, ctx) => {
      await setAntiPhishing(s, requireSession(ctx), null);
      return {};
    },
  };
}
