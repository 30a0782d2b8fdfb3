import type { z } from 'zod/mini';
import type { center2Response, Lang, User } from '../../../protocol';
import type { Session } from '../../platform/security/sessions';
import type { AccountServices } from './services';
import { sessionUser, toUser } from './users';

export async function center(s: AccountServices, session: Session): Promise<User> {
  return toUser(await sessionUser(s.db, session.userId));
}

/** The account page's summary: the user, how many registered with their code, and their live sessions. */
export async function center2(s: AccountServices, session: Session): Promise<z.output<typeof center2Response>> {
  const row = await sessionUser(s.db, session.userId);
  const invited = await s.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('referrer_id', '=', row.id)
    .executeTakeFirstOrThrow();
  return {
    user: toUser(row),
    invite_count: Number(invited.n),
    last_login_at: row.last_login_at,
    sessions: await s.sessions.countActive(row.id),
  };
}

/** A logged-in user's choice is stored (so it follows them to other devices); a guest's is only checked. */
export async function setLang(s: AccountServices, session: Session | null, lang: Lang): Promise<Lang> {
  if (session) await s.db.updateTable('users').set({ lang }).where('id', '=', session.userId).execute();
  return lang;
}

export async function getLang(s: AccountServices, session: Session | null, headerLang: Lang): Promise<Lang> {
  return session ? (await sessionUser(s.db, session.userId)).lang : headerLang;
}
