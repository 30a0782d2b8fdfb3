import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import nodemailer from 'nodemailer';
import type { Lang } from '../../../protocol';
import type { Database } from '../../platform/db/schema';
import { translate } from '../../platform/i18n/messages';
import { withAccount } from './tables';

/** One e-mail from the platform, before the recipient's anti-phishing code is added. */
export interface PlatformMail {
  to: string;
  lang: Lang;
  subject: string;
  text: string;
}

/** How the platform's e-mails leave: SMTP when configured, else the mail_outbox table (and the log). */
export interface Mailer {
  send(mail: PlatformMail): Promise<void>;
}

/** The anti-phishing code of the user with this e-mail address, if they set one. */
export async function antiPhishingOf(db: Kysely<Database>, address: string): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .select('anti_phishing')
    .where('email', '=', address.toLowerCase())
    .executeTakeFirst();
  return row?.anti_phishing ?? null;
}

/**
 * The body as the recipient reads it: their anti-phishing code first, when they set one, so an e-mail without it (or
 * with another) is not from the platform. Every sender goes through here.
 */
export async function composedText(db: Kysely<Database>, mail: PlatformMail): Promise<string> {
  const code = await antiPhishingOf(db, mail.to);
  return code === null ? mail.text : `${translate(mail.lang, 'mailAntiPhishing', { code })}\n\n${mail.text}`;
}

/** Simulated delivery, the stand-in for the person's inbox: the message as composed, in mail_outbox and the log. */
export class OutboxMailer implements Mailer {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(mail: PlatformMail): Promise<void> {
    const body = await composedText(this.db, mail);
    await withAccount(this.db)
      .insertInto('mail_outbox')
      .values({ address: mail.to, subject: mail.subject, body, created_at: this.now() })
      .execute();
    this.log.info({ address: mail.to, subject: mail.subject }, `e-mail to ${mail.to} (outbox)`);
  }
}

/** E-mail through any nodemailer transport (an SMTP URL in production, a JSON transport in tests). */
export class SmtpMailer implements Mailer {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly transport: nodemailer.Transporter,
    private readonly from: string,
  ) {}

  async send(mail: PlatformMail): Promise<void> {
    const text = await composedText(this.db, mail);
    await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text });
  }
}

/** SMTP when configured, the outbox otherwise. */
export function mailerFor(
  db: Kysely<Database>,
  smtp: { url: string; from: string } | undefined,
  outbox: () => Mailer,
): Mailer {
  return smtp ? new SmtpMailer(db, nodemailer.createTransport(smtp.url), smtp.from) : outbox();
}
