import type { Kysely } from 'kysely';
import type { NewsKind } from '../../../protocol/news';
import type { Database } from '../../platform/db/schema';
import type { TextInput } from '../../platform/published-texts';
import { createNews } from './articles';
import { withNews } from './tables';

/**
 * News for a fresh install (`npm run ops -- demo`): two announcements and a news item in German and English, about
 * the product as it is. Nothing promises a return.
 */
const SAMPLES: readonly { kind: NewsKind; de: TextInput; en: TextInput }[] = [
  {
    kind: 'news',
    en: {
      title: 'Practice first: the option and lever simulators',
      body: `Both simulators run on the same engine and rules as real trading, with 10,000 USDT of practice funds that you can reset at any time.

Practice funds stay in the simulator: they never move to your real accounts. Try a strategy there before you use real money.`,
    },
    de: {
      title: 'Erst üben: die Options- und Hebel-Simulatoren',
      body: `Beide Simulatoren laufen mit derselben Engine und denselben Regeln wie der echte Handel, mit 10.000 USDT Übungsguthaben, das du jederzeit zurücksetzen kannst.

Das Übungsguthaben bleibt im Simulator: Es wird nie auf deine echten Konten übertragen. Probiere eine Strategie dort aus, bevor du echtes Geld einsetzt.`,
    },
  },
  {
    kind: 'announcement',
    en: {
      title: 'Withdrawals are reviewed within 48 hours',
      body: `Every withdrawal is checked by our team before it is paid out, usually within 48 hours. You see its state under Deposits and withdrawals.

Until the review, the amount and the fee are frozen in your account; a rejected withdrawal releases them with the reason.`,
    },
    de: {
      title: 'Auszahlungen werden innerhalb von 48 Stunden geprüft',
      body: `Jede Auszahlung wird vor der Auszahlung von unserem Team geprüft, meist innerhalb von 48 Stunden. Den Stand siehst du unter Ein- und Auszahlungen.

Bis zur Prüfung sind Betrag und Gebühr auf deinem Konto eingefroren; bei einer Ablehnung werden sie mit dem Grund wieder freigegeben.`,
    },
  },
  {
    kind: 'announcement',
    en: {
      title: 'Protect your account with a fund password',
      body: `Set a 6-digit fund password under Settings → Security. Withdrawals and new withdrawal addresses need it.

We never ask for your password or codes by e-mail, phone or chat.`,
    },
    de: {
      title: 'Schütze dein Konto mit einem Fondspasswort',
      body: `Lege unter Einstellungen → Sicherheit ein 6-stelliges Fondspasswort fest. Auszahlungen und neue Auszahlungsadressen brauchen es.

Wir fragen dich nie per E-Mail, Telefon oder Chat nach deinem Passwort oder deinen Codes.`,
    },
  },
];

/**
 * On an install without any news, adds the samples, published, as `operator` (each audited like an operator's own),
 * oldest first so the last one is the newest. Returns how many it added (0 when there is news already).
 */
export async function addSampleNews(db: Kysely<Database>, action: { operator: string; now?: number }): Promise<number> {
  const any = await withNews(db).selectFrom('news_articles').select('id').limit(1).execute();
  if (any.length > 0) return 0;
  for (const s of SAMPLES) {
    await createNews(db, { kind: s.kind, texts: { de: s.de, en: s.en }, published: true }, action);
  }
  return SAMPLES.length;
}
