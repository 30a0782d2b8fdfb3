import { z } from 'zod/mini';
import { call, emptyResponse, none } from './call-spec';
import {
  accountField,
  areaCodeField,
  codeField,
  emailField,
  fundPasswordField,
  inviteCodeField,
  mobileField,
  passwordField,
  repasswordField,
  tickedField,
} from './fields';
import { ALL_LANGS } from './lang';
import { user } from './user';

export * from './user';
export { emptyResponse };

/** Why a verification code is sent; a code only works for the scene it was sent for. */
export const CODE_SCENES = ['register', 'forget', 'fund', 'address'] as const;
export const codeScene = z.enum(CODE_SCENES, { error: 'invalidInput' });
export type CodeScene = z.infer<typeof codeScene>;

/** Register and forget work by phone or by e-mail; `type` says which identifier is given. */
export const contactType = z.enum(['mobile', 'email'], { error: 'invalidInput' });

const byMobile = z.object({ type: z.literal('mobile'), area_code: areaCodeField, mobile: mobileField });
const byEmail = z.object({ type: z.literal('email'), email: emailField });

/**
 * A phone number or e-mail address proved with the code sent to it for `register`: registration's, and a new
 * wallet's (its account needs a contact for the codes that guard the fund password and withdrawal addresses).
 */
export const provedContact = z.discriminatedUnion(
  'type',
  [z.extend(byMobile, { code: codeField }), z.extend(byEmail, { code: codeField })],
  { error: 'walletContactRequired' },
);

/** Passwords must match; reported on the repeat field. */
const matching = <T extends { password: string; repassword: string }>(v: T, ctx: z.core.$RefinementCtx) => {
  if (v.password !== v.repassword) ctx.addIssue({ code: 'custom', message: 'passwordMismatch', path: ['repassword'] });
};

const registerCommon = z.object({
  code: codeField,
  password: passwordField,
  repassword: z
    .string({ error: 'repasswordRequired' })
    .check(z.minLength(1, { error: 'repasswordRequired' }), z.maxLength(128, { error: 'tooLong' })),
  invite_code: inviteCodeField,
  agree: tickedField('agreementRequired'),
});

export const registerRequest = z
  .discriminatedUnion('type', [z.extend(byMobile, registerCommon.shape), z.extend(byEmail, registerCommon.shape)], {
    error: 'invalidInput',
  })
  .check(z.superRefine(matching));
export type RegisterRequest = z.input<typeof registerRequest>;

const forgetCommon = z.object({ code: codeField, password: passwordField, repassword: repasswordField });
export const forgetRequest = z
  .discriminatedUnion('type', [z.extend(byMobile, forgetCommon.shape), z.extend(byEmail, forgetCommon.shape)], {
    error: 'invalidInput',
  })
  .check(z.superRefine(matching));
export type ForgetRequest = z.input<typeof forgetRequest>;

/** Login by phone (digits, with optional area code), e-mail or username. */
export const loginRequest = z.object({
  account: accountField,
  area_code: z.optional(z.string().check(z.maxLength(8, { error: 'tooLong' }))),
  password: z
    .string({ error: 'passwordRequired' })
    .check(z.minLength(1, { error: 'passwordRequired' }), z.maxLength(128, { error: 'tooLong' })),
});
export type LoginRequest = z.input<typeof loginRequest>;

export const emailSendRequest = z.object({ email: emailField, scene: codeScene });
export const smsSendRequest = z.object({ area_code: areaCodeField, mobile: mobileField, scene: codeScene });
/** Sends a code to the logged-in user's own phone or e-mail (for fund password and address changes). */
export const otherMailRequest = z.object({ scene: z.enum(['fund', 'address'], { error: 'invalidInput' }) });
export const codeSentResponse = z.object({ channel: contactType, to: z.string(), retry_after: z.number() });

export const checkMobileRequest = z.object({ area_code: areaCodeField, mobile: mobileField });
export const checkEmailRequest = z.object({ email: emailField });
/** ok when the identifier is still free; a business error (mobileTaken/emailTaken) otherwise. */
export const availableResponse = z.object({ available: z.literal(true) });

export const areaCode = z.object({ iso: z.string(), dial: z.string() });
export const areaCodeResponse = z.array(areaCode);
export type AreaCode = z.infer<typeof areaCode>;

export const sessionResponse = z.object({ token: z.string(), user });
export type SessionResponse = z.infer<typeof sessionResponse>;

export const center2Response = z.object({
  user,
  invite_count: z.number(),
  last_login_at: z.nullable(z.number()),
  sessions: z.number(),
});

export const setLangRequest = z.object({ lang: z.enum(ALL_LANGS, { error: 'langUnsupported' }) });
export const langResponse = z.object({ lang: z.enum(ALL_LANGS) });

export const updatePasswordRequest = z
  .object({
    old_password: z
      .string({ error: 'oldPasswordRequired' })
      .check(z.minLength(1, { error: 'oldPasswordRequired' }), z.maxLength(128, { error: 'tooLong' })),
    password: passwordField,
    repassword: repasswordField,
  })
  .check(z.superRefine(matching));

export const hasPasswordResponse = z.object({ has_password: z.boolean() });

/** Set or change the 6-digit fund password, proven by the login password or by a code sent to the user. */
export const fundPasswordRequest = z
  .intersection(
    z.discriminatedUnion(
      'mode',
      [
        z.object({
          mode: z.literal('password'),
          login_password: z
            .string({ error: 'passwordRequired' })
            .check(z.minLength(1, { error: 'passwordRequired' }), z.maxLength(128, { error: 'tooLong' })),
        }),
        z.object({ mode: z.literal('code'), code: codeField }),
      ],
      { error: 'invalidInput' },
    ),
    z.object({
      password: fundPasswordField,
      repassword: z.string({ error: 'repasswordRequired' }).check(z.maxLength(32, { error: 'tooLong' })),
    }),
  )
  .check(z.superRefine(matching));

/** The account calls (its domain names them in its contract; server/domains/compose.ts joins every table). */
export const accountCalls = {
  email_send: call('POST', false, emailSendRequest, codeSentResponse),
  sms_send: call('POST', false, smsSendRequest, codeSentResponse),
  sms_other_mail: call('POST', true, otherMailRequest, codeSentResponse),
  area_code: call('POST', false, none, areaCodeResponse),
  'user/check_mobile': call('POST', false, checkMobileRequest, availableResponse),
  'user/check_email': call('POST', false, checkEmailRequest, availableResponse),
  'user/register': call('POST', false, registerRequest, sessionResponse),
  'user/login': call('POST', false, loginRequest, sessionResponse),
  'user/logout': call('POST', true, none, emptyResponse),
  'user/forget': call('POST', false, forgetRequest, emptyResponse),
  'set/lang': call('POST', false, setLangRequest, langResponse),
  'get/lang': call('POST', false, none, langResponse),
  'user/center': call('GET', true, none, user),
  'user/center2': call('GET', true, none, center2Response),
  'safe/update_password': call('POST', true, updatePasswordRequest, emptyResponse),
  'user/has_password': call('POST', true, none, hasPasswordResponse),
  'user/e_pwd': call('POST', true, fundPasswordRequest, emptyResponse),
} as const;
