import { SESSION_EXPIRED_TYPE } from '../../../protocol';
import type { Lang } from '../../../protocol/lang';
import { type MessageKey, translate } from '../i18n/messages';

/** The envelopes of protocol/envelope.ts, built with the message already in the caller's language. */
export const okBody = <T>(data: T) => ({ type: 'ok' as const, code: 1 as const, message: 'OK' as const, data });

export const errorBody = (
  lang: Lang,
  key: MessageKey | string,
  extra: { field?: string | undefined; data?: Record<string, unknown> | undefined } = {},
) => ({
  type: 'error' as const,
  code: 0 as const,
  message: translate(lang, key),
  reason: key,
  ...(extra.field ? { field: extra.field } : {}),
  ...(extra.data ? { data: extra.data } : {}),
});

export const sessionExpiredBody = (lang: Lang, key: 'notLoggedIn' | 'sessionExpired') => ({
  type: SESSION_EXPIRED_TYPE,
  code: 0 as const,
  message: translate(lang, key),
});
