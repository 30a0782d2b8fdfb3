import type { Session } from '../../platform/security/sessions';
import type { AccountServices } from './services';

/** The caller's anti-phishing code, or null. */
export async function antiPhishingCode(s: AccountServices, session: Session): Promise<{ code: string | null }> {
  const row = await s.db
    .selectFrom('users')
    .select('anti_phishing')
    .where('id', '=', session.userId)
    .executeTakeFirstOrThrow();
  return { code: row.anti_phishing };
}

/** Sets (or with null, removes) the caller's anti-phishing code; every e-mail from now on carries it (./mail.ts). */
export async function setAntiPhishing(
  s: AccountServices,
  session: Session,
  code: string | null,
): Promise<{ code: string | null }> {
  await s.db.updateTable('users').set({ anti_phishing: code }).where('id', '=', session.userId).execute();
  return { code };
}
