import Bowser from 'bowser';
import type { Kysely } from 'kysely';
import type { Lang } from '../../../protocol';
import { NEW_SIGN_IN_EVENT, SESSION_ENDED_EVENT } from '../../../protocol/account-events';
import type { Devices, SignedInDevice } from '../../../protocol/devices';
import type { Database } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
import { trustedOrigin } from '../../platform/http/public-site';
import { translate } from '../../platform/i18n/messages';
import { recordUserEvent } from '../../platform/realtime/user-events';
import type { LiveSession, Session } from '../../platform/security/sessions';
import type { AccountServices } from './services';

/** Browser, system and kind of device as the User-Agent names them (bowser's reading; nothing for none). */
export function deviceOf(userAgent: string | null): Pick<SignedInDevice, 'browser' | 'os' | 'mobile'> {
  if (!userAgent) return { browser: null, os: null, mobile: false };
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split('.')[0];
  const browser = parsed.browser.name ? [parsed.browser.name, major].filter(Boolean).join(' ') : null;
  const type = parsed.platform.type;
  return { browser, os: parsed.os.name ?? null, mobile: type === 'mobile' || type === 'tablet' };
}

const listed = (session: LiveSession, current: number): SignedInDevice => ({
  id: session.id,
  ...deviceOf(session.userAgent),
  created_at: session.createdAt,
  last_used_at: session.lastUsedAt,
  current: session.id === current,
});

/** The caller's live sessions, the current one marked. */
export async function signedInDevices(s: AccountServices, session: Session): Promise<Devices> {
  const live = await s.sessions.listLive(session.userId);
  return { sessions: live.map((l) => listed(l, session.id)) };
}

/** Tells the user's devices that sessions ended, in the transaction that ended them (server/platform/realtime/user-events.ts). */
async function announceEnded(trx: Kysely<Database>, s: AccountServices, userId: number, ids: number[]): Promise<void> {
  await recordUserEvent(trx, { userId, kind: SESSION_ENDED_EVENT, data: { ids }, at: s.now() });
}

/**
 * Ends one of the caller's other sessions: its device is signed out at its next request, and at once if it is open
 * (its socket hears of it). Another user's session id, an ended one, or one that never was, are all "not found"; the
 * current session is ended by logging out.
 */
export async function endSession(s: AccountServices, session: Session, id: number): Promise<void> {
  if (id === session.id) throw new BusinessError('sessionIsCurrent', { field: 'id' });
  await s.db.transaction().execute(async (trx) => {
    if ((await s.sessions.endFromList(session.userId, [id], trx)) !== 1) {
      throw new BusinessError('sessionNotFound', { field: 'id' });
    }
    await announceEnded(trx, s, session.userId, [id]);
  });
}

/** Ends every session of the caller but the current one; how many it ended. */
export async function endOtherSessions(s: AccountServices, session: Session): Promise<number> {
  return s.db.transaction().execute(async (trx) => {
    const others = (await s.sessions.listLive(session.userId, trx)).filter((l) => l.id !== session.id).map((l) => l.id);
    // Exactly the sessions listed: the count the user is told and the ids their devices hear are the same ones.
    const ended = await s.sessions.endFromList(session.userId, others, trx);
    if (ended > 0) await announceEnded(trx, s, session.userId, others);
    return ended;
  });
}

/** A device as sign-ins are compared: browser, system and kind without versions (an update is not a new device). */
export function deviceKey(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const parsed = Bowser.parse(userAgent);
  if (!parsed.browser.name && !parsed.os.name) return null;
  return [parsed.browser.name ?? '', parsed.os.name ?? '', parsed.platform.type ?? ''].join('|');
}

/** Earlier sessions a sign-in is compared with: the newest ones, enough for any person's devices. */
const KNOWN_DEVICES_LOOKBACK = 200;

/**
 * Whether a sign-in with `userAgent` comes from a device the account has not signed in from before (by deviceKey,
 * over its recent sessions, logged-out and expired ones included, but not those the user ended from the device list).
 * An account's first session is no news; a sign-in whose device cannot be read counts as new.
 */
export async function isNewDevice(
  db: Kysely<Database>,
  userId: number,
  userAgent: string | undefined,
): Promise<boolean> {
  const earlier = await db
    .selectFrom('sessions')
    .select(['user_agent', 'ended_from_list'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(KNOWN_DEVICES_LOOKBACK)
    .execute();
  if (earlier.length === 0) return false;
  const key = deviceKey(userAgent ?? null);
  // A device the user signed out from the list is not trusted again: signing in from it is news.
  return key === null || !earlier.some((row) => row.ended_from_list === null && deviceKey(row.user_agent) === key);
}

/** What a sign-in tells the user when it came from a new device. */
export interface SignInNews {
  userId: number;
  email: string | null;
  lang: Lang;
  userAgent: string | undefined;
  /** Where the sign-in was made (scheme and host): the e-mail links to that site's security centre. */
  site: { scheme: string; host: string } | undefined;
}

/** The security centre, where the device list is. */
export const SECURITY_CENTRE_PATH = '/pages/settings/security/index';

/**
 * Announces a sign-in from a new device: an account event for the user's open devices, recorded in the sign-in's
 * transaction (`trx`), and an e-mail to the account's address once it has committed (the returned function; a
 * mail that fails is logged, the sign-in stands).
 */
export async function announceNewDevice(
  s: AccountServices,
  trx: Kysely<Database>,
  news: SignInNews,
): Promise<() => void> {
  const at = s.now();
  const device = deviceOf(news.userAgent ?? null);
  await recordUserEvent(trx, {
    userId: news.userId,
    kind: NEW_SIGN_IN_EVENT,
    data: { browser: device.browser, os: device.os, at },
    at,
  });
  return () => {
    if (!news.email) return;
    const named = [device.browser, device.os].filter(Boolean).join(', ');
    // Only a site the operator named (PUBLIC_ORIGIN) is linked: the Host header is the signer-in's to choose, and a
    // genuine e-mail with the user's anti-phishing code must not point elsewhere. Otherwise the path alone.
    const site = trustedOrigin(news.site, s.publicOrigins);
    const link = site ? `${site.origin}${SECURITY_CENTRE_PATH}` : SECURITY_CENTRE_PATH;
    const mail = {
      to: news.email,
      lang: news.lang,
      subject: translate(news.lang, 'signInMailSubject'),
      text: translate(news.lang, 'signInMailText', {
        device: named || translate(news.lang, 'signInMailUnknownDevice'),
        time: new Date(at).toISOString().slice(0, 16).replace('T', ' '),
        link,
      }),
    };
    s.mailer.send(mail).catch((err: unknown) => s.log.warn({ err }, 'new sign-in e-mail not sent'));
  };
}
