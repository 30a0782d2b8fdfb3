import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import nodemailer from 'nodemailer';
import type { CodeScene, Lang } from '../../../protocol';
import type { Database } from '../../platform/db/schema';
import { translate } from '../../platform/i18n/messages';
import type { CodeChannel } from './tables';
import { withAccount } from './tables';

/** One verification code on its way to a person. */
export interface CodeMessage {
  channel: CodeChannel;
  address: string;
  scene: CodeScene;
  code: string;
  /** Language of the request that asked for the code. */
  lang: Lang;
}

/** How codes reach people; swapped for SMTP, a real SMS gateway or a test double. */
export interface CodeSender {
  send(message: CodeMessage): Promise<void>;
}

/**
 * Simulated delivery: the code lands in the `code_outbox` table, where e2e tests and `npm run ops -- codes`
 * read it, and in the log, so a fresh install works offline. This is the stand-in for the person's inbox;
 * real senders (SMTP) never log codes.
 */
export class OutboxSender implements CodeSender {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send({ channel, address, scene, code }: CodeMessage): Promise<void> {
    await withAccount(this.db)
      .insertInto('code_outbox')
      .values({ channel, address, scene, code, created_at: this.now() })
      .execute();
    this.log.info({ channel, address, scene, code }, `verification code ${code} for ${address} (outbox)`);
  }
}

/** E-mail through any nodemailer transport (an SMTP URL in production, a JSON transport in tests). */
export class MailSender implements CodeSender {
  constructor(
    private readonly transport: nodemailer.Transporter,
    private readonly from: string,
  ) {}

  async send({ address, code, lang }: CodeMessage): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: address,
      subject: translate(lang, 'codeMailSubject'),
      text: translate(lang, 'codeMailText', { code }),
    });
  }
}

/** Sends e-mail and SMS codes through different senders. */
export class ChannelSender implements CodeSender {
  constructor(private readonly byChannel: Record<CodeChannel, CodeSender>) {}

  send(message: CodeMessage): Promise<void> {
    return this.byChannel[message.channel].send(message);
  }
}

/** SMTP for e-mail when configured; the outbox otherwise, and always for SMS (there is no SMS provider). */
export function codeSenderFor(smtp: { url: string; from: string } | undefined, outbox: CodeSender): CodeSender {
  if (!smtp) return outbox;
  return new ChannelSender({ email: new MailSender(nodemailer.createTransport(smtp.url), smtp.from), sms: outbox });
}
