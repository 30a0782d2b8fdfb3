import type { Kysely } from 'kysely';
import type { HelpTopic } from '../../../protocol/help';
import type { Database } from '../../platform/db/schema';
import { createArticle, type HelpTextInput } from './articles';
import { withHelp } from './tables';

/**
 * Help articles for a fresh install (`npm run ops -- demo`): what a new user asks first, in German and English, with
 * the product's real rules and numbers (SPEC 9, RULES.md). No article promises a return.
 */
interface Sample {
  topic: HelpTopic;
  order: number;
  de: HelpTextInput;
  en: HelpTextInput;
}

const SAMPLES: readonly Sample[] = [
  {
    topic: 'deposit',
    order: 10,
    en: {
      title: 'How do I deposit crypto?',
      body: `Open Deposit in the menu, choose the coin and its network, and send the coins to the deposit address shown (you can copy it or scan its QR code).

The networks are: USDT on ERC20 or OMNI, USDC on ERC20, BTC on OMNI and ETH on ERC20. Send only the coin shown, on the network shown: coins sent on another network may be lost.

Then report the deposit: enter the whole amount, the transaction hash and a screenshot of the transfer as proof. A hash can be used only once.

Our team reviews the deposit and credits it to your spot account once it is approved. You find the result under Deposits and withdrawals.

A bank transfer works the same way: transfer at least the minimum to the bank details shown, report it with a proof image, and it is credited in USDT after review.`,
    },
    de: {
      title: 'Wie zahle ich Krypto ein?',
      body: `Öffne im Menü „Einzahlen“, wähle den Coin und sein Netzwerk und sende die Coins an die angezeigte Einzahlungsadresse (du kannst sie kopieren oder ihren QR-Code scannen).

Die Netzwerke sind: USDT über ERC20 oder OMNI, USDC über ERC20, BTC über OMNI und ETH über ERC20. Sende nur den angezeigten Coin über das angezeigte Netzwerk: Coins, die über ein anderes Netzwerk gesendet werden, können verloren gehen.

Melde die Einzahlung danach: Gib den ganzzahligen Betrag, den Transaktions-Hash und einen Screenshot der Überweisung als Nachweis an. Ein Hash kann nur einmal verwendet werden.

Unser Team prüft die Einzahlung und schreibt sie nach der Freigabe deinem Spot-Konto gut. Das Ergebnis findest du unter „Ein- und Auszahlungen“.

Eine Banküberweisung funktioniert genauso: Überweise mindestens den Mindestbetrag an die angezeigte Bankverbindung, melde sie mit einem Nachweisbild, und sie wird nach der Prüfung in USDT gutgeschrieben.`,
    },
  },
  {
    topic: 'withdrawal',
    order: 10,
    en: {
      title: 'Withdrawals: limits and arrival time',
      body: `Before your first withdrawal you need three things: a verified identity, a fund password and a saved withdrawal address for the coin.

You can make at most 3 withdrawal requests within 24 hours. Each coin has a minimum amount and a fee; the withdrawal page shows both, and the amount you will receive, before you confirm.

While a request is being reviewed, its amount and fee are frozen. If it is rejected, both become available again.

The expected arrival is within 48 hours. Check the address and the network carefully before you confirm: a transfer on the blockchain cannot be reversed.`,
    },
    de: {
      title: 'Auszahlungen: Limits und Dauer',
      body: `Vor deiner ersten Auszahlung brauchst du drei Dinge: eine verifizierte Identität, ein Fondspasswort und eine gespeicherte Auszahlungsadresse für den Coin.

Du kannst innerhalb von 24 Stunden höchstens 3 Auszahlungen beantragen. Für jeden Coin gelten ein Mindestbetrag und eine Gebühr; die Auszahlungsseite zeigt beides und den Betrag, den du erhältst, bevor du bestätigst.

Solange ein Antrag geprüft wird, sind Betrag und Gebühr eingefroren. Wird er abgelehnt, sind beide wieder verfügbar.

Die Auszahlung kommt voraussichtlich innerhalb von 48 Stunden an. Prüfe Adresse und Netzwerk sorgfältig, bevor du bestätigst: Eine Übertragung auf der Blockchain lässt sich nicht rückgängig machen.`,
    },
  },
  {
    topic: 'account',
    order: 10,
    en: {
      title: 'Identity verification (KYC)',
      body: `Withdrawals and option trading with real funds need a verified identity. Open Identity verification in the menu.

Basic verification asks for your country, your full name, your ID number and your address. Advanced verification asks for photos of the front and the back of the same ID and a photo of you holding it; it is possible once your basic verification has been confirmed.

Your status is shown as not verified, under review or verified. Our team reviews every submission. If yours is rejected, you see the reason and can correct your details and submit them again.`,
    },
    de: {
      title: 'Identitätsprüfung (KYC)',
      body: `Für Auszahlungen und den Optionshandel mit echtem Guthaben brauchst du eine verifizierte Identität. Öffne im Menü „Identitätsprüfung“.

Die Basis-Verifizierung fragt nach deinem Land, deinem vollständigen Namen, deiner Ausweisnummer und deiner Adresse. Die erweiterte Verifizierung fragt nach Fotos der Vorder- und Rückseite desselben Ausweises und einem Foto, auf dem du ihn hältst; sie ist möglich, sobald deine Basis-Verifizierung bestätigt wurde.

Dein Status lautet „Nicht verifiziert“, „In Prüfung“ oder „Verifiziert“. Unser Team prüft jede Einreichung. Wird deine abgelehnt, siehst du den Grund und kannst deine Angaben korrigieren und erneut einreichen.`,
    },
  },
  {
    topic: 'account',
    order: 20,
    en: {
      title: 'Moving funds between your accounts',
      body: `Your assets are kept in four accounts: the spot account (deposits, withdrawals and spot trading), the options account, the contract account (lever trading) and the trust account (finance products).

To move funds, open Transfer on the assets page, choose the account to move from and the one to move to, the coin and the amount.

Transfers between your own accounts are free and take effect at once. You find them under Transfer records.`,
    },
    de: {
      title: 'Guthaben zwischen deinen Konten umbuchen',
      body: `Dein Vermögen liegt auf vier Konten: dem Spot-Konto (Ein- und Auszahlungen und Spot-Handel), dem Optionskonto, dem Kontraktkonto (Hebelhandel) und dem Trust-Konto (Anlageprodukte).

Zum Umbuchen öffnest du auf der Vermögensseite „Umbuchen“, wählst das Konto, von dem, und das Konto, auf das du umbuchen willst, den Coin und den Betrag.

Umbuchungen zwischen deinen eigenen Konten sind kostenlos und sofort wirksam. Du findest sie unter „Umbuchungen“.`,
    },
  },
  {
    topic: 'security',
    order: 10,
    en: {
      title: 'The fund password',
      body: `The fund password has exactly 6 digits and is separate from your login password. You need it for withdrawals and for new withdrawal addresses.

Set it in the Security centre under Fund password. Choose digits that are hard to guess (not your birthday) and that you use nowhere else.

If you have forgotten it, change it in the Security centre with a code we send to the phone number or e-mail address of your account.

Never tell anyone your fund password, your login password or a verification code. Our team will never ask you for them.`,
    },
    de: {
      title: 'Das Fondspasswort',
      body: `Das Fondspasswort besteht aus genau 6 Ziffern und ist von deinem Anmeldepasswort getrennt. Du brauchst es für Auszahlungen und für neue Auszahlungsadressen.

Lege es im Sicherheitscenter unter „Fondspasswort“ fest. Wähle Ziffern, die schwer zu erraten sind (nicht dein Geburtsdatum) und die du sonst nirgends verwendest.

Wenn du es vergessen hast, änderst du es im Sicherheitscenter mit einem Code, den wir an die Telefonnummer oder E-Mail-Adresse deines Kontos senden.

Gib dein Fondspasswort, dein Anmeldepasswort und Bestätigungscodes niemals weiter. Unser Team wird dich nie danach fragen.`,
    },
  },
  {
    topic: 'c2c',
    order: 10,
    en: {
      title: 'Buying from merchants: the 30-minute payment window',
      body: `When you place a C2C order, the merchant's coins are held in escrow at once, so they are reserved for you.

You then have 30 minutes to pay the merchant outside the app, with one of the payment methods shown in the order, and to mark the order as paid. The countdown runs on the server's clock.

If the order is not marked as paid within 30 minutes, it is cancelled automatically and the coins go back to the merchant. While it waits for your payment you can also cancel it yourself. Mark it as paid only after you have really paid.

Once you have marked it as paid, the merchant releases the coins to you. If something goes wrong, either side can open an appeal, and our team decides it. Use the order's chat to talk to the merchant.`,
    },
    de: {
      title: 'Kauf bei Händlern: das 30-Minuten-Zahlungsfenster',
      body: `Wenn du eine C2C-Order aufgibst, werden die Coins des Händlers sofort treuhänderisch gesperrt und so für dich reserviert.

Danach hast du 30 Minuten Zeit, den Händler außerhalb der App mit einer der in der Order genannten Zahlungsarten zu bezahlen und die Order als bezahlt zu markieren. Der Countdown läuft nach der Uhr des Servers.

Wird die Order nicht innerhalb von 30 Minuten als bezahlt markiert, wird sie automatisch storniert und die Coins gehen an den Händler zurück. Solange sie auf deine Zahlung wartet, kannst du sie auch selbst stornieren. Markiere sie erst als bezahlt, wenn du wirklich bezahlt hast.

Sobald du sie als bezahlt markiert hast, gibt der Händler die Coins an dich frei. Wenn etwas schiefgeht, kann jede Seite eine Beschwerde einlegen, über die unser Team entscheidet. Über den Chat der Order sprichst du mit dem Händler.`,
    },
  },
  {
    topic: 'trading',
    order: 10,
    en: {
      title: 'Finance products: the early redemption fee',
      body: `Trust and hosting products pay a fixed daily rate for a fixed number of days. Interest starts at 00:00 UTC after your purchase and is paid daily to your trust account; at the end of the term your amount comes back with the last day's interest. A rate is no promise of profit: read the rules and the risk note before you buy.

You can redeem an order before the end of its term. The fee is the settlement ratio × the remaining days × the amount. With the usual ratio of 0.4% per day, 10,000 USDT with 15 days left costs 600 USDT, and 1,000 USDT with 3 days left costs 12 USDT.

The fee is deducted from the amount you get back and is never more than the amount. A product may publish a different rule (1.5 times one day's interest per remaining day); the product page and the finance rules show each product's rule, and the fee is shown before you confirm.`,
    },
    de: {
      title: 'Anlageprodukte: die Gebühr bei vorzeitiger Rückgabe',
      body: `Trust- und Hosting-Produkte zahlen für eine feste Zahl von Tagen einen festen Tageszins. Die Verzinsung beginnt um 00:00 UTC nach deinem Kauf, die Zinsen werden täglich deinem Trust-Konto gutgeschrieben, und am Ende der Laufzeit erhältst du deinen Betrag mit den Zinsen des letzten Tages zurück. Ein Zinssatz ist kein Gewinnversprechen: Lies vor dem Kauf die Regeln und den Risikohinweis.

Du kannst einen Auftrag vor Laufzeitende zurückgeben. Die Gebühr ist Abrechnungssatz × verbleibende Tage × Betrag. Beim üblichen Satz von 0,4 % pro Tag kosten 10.000 USDT mit noch 15 Tagen 600 USDT, und 1.000 USDT mit noch 3 Tagen kosten 12 USDT.

Die Gebühr wird von dem Betrag abgezogen, den du zurückerhältst, und ist nie höher als der Betrag. Ein Produkt kann eine andere Regel veröffentlichen (das 1,5-Fache der Zinsen eines Tages für jeden verbleibenden Tag); die Produktseite und die Anlageregeln zeigen die Regel jedes Produkts, und die Gebühr wird angezeigt, bevor du bestätigst.`,
    },
  },
];

/**
 * On an install without any help article, adds the samples, published, as `operator` (each audited like an
 * operator's own). Returns how many it added (0 when articles exist).
 */
export async function addSampleArticles(
  db: Kysely<Database>,
  action: { operator: string; now?: number },
): Promise<number> {
  const any = await withHelp(db).selectFrom('help_articles').select('id').limit(1).execute();
  if (any.length > 0) return 0;
  for (const s of SAMPLES) {
    await createArticle(
      db,
      { topic: s.topic, sortOrder: s.order, texts: { de: s.de, en: s.en }, published: true },
      action,
    );
  }
  return SAMPLES.length;
}
