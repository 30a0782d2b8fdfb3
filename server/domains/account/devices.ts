import Bowser from 'bowser';
import type { Kysely } from 'kysely';
import { SESSION_ENDED_EVENT } from '../../../protocol/account-events';
import type { Devices, SignedInDevice } from '../../../protocol/devices';
import type { Database } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
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
    if (!(await s.sessions.revokeOwn(session.userId, id, trx))) {
      throw new BusinessError('sessionNotFound', { field: 'id' });
    }
    await announceEnded(trx, s, session.userId, [id]);
  });
}

/** Ends every session of the caller but the current one; how many it ended. */
export async function endOtherSessions(s: AccountServices, session: Session): Promise<number> {
  return s.db.transaction().execute(async (trx) => {
    const others = (await s.sessions.listLive(session.userId, trx)).filter((l) => l.id !== session.id).map((l) => l.id);
    if (others.length === 0) return 0;
    const ended = await s.sessions.revokeAll(session.userId, { keep: session.id, db: trx });
    await announceEnded(trx, s, session.userId, others);
    return ended;
  });
}
