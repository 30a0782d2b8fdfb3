import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { CodeScene, Lang } from '../../../protocol';
import type { Database } from '../../platform/db/schema';
import { translate } from '../../platform/i18n/messages';
import type { Mailer, PlatformMail } from './mail';
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

/** The e-mail that carries a code, in the language of the request. */
export function codeMail({ address, code, lang }: CodeMessage): PlatformMail {
  return {
    to: address,
    lang,
    subject: translate(lang, 'codeMailSubject'),
    text: translate(lang, 'codeMailText', { code }),
  };
}

/**
 * Simulated delivery: the code lands in the `code_outbox` table, where e2e tests and `npm run ops -- codes`
 * read it, and in the log, so a fresh install works offline. This is the stand-in for the person's inbox;
 * real senders (SMTP) never log codes. An e-mail code also goes, as the e-mail it would be, to the outbox mailer
 * when given (mail_outbox: with the recipient's anti-phishing code).
 */
export class OutboxSender implements CodeSender {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
    private readonly log: FastifyBaseLogger,
    private readonly mailer?: Mailer,
  ) {}

  async send(message: CodeMessage): Promise<void> {
    const { channel, address, scene, code } = message;
    await withAccount(this.db)
      .insertInto('code_outbox')
      .values({ channel, address, scene, code, created_at: this.now() })
      .execute();
    this.log.info({ channel, address, scene, code }, `verification code ${code} for ${address} (outbox)`);
    if (channel === 'email' && this.mailer) await this.mailer.send(codeMail(message));
  }
}

/** Codes by e-mail through the platform's mailer (SMTP), which adds the recipient's anti-phishing code. */
export class MailSender implements CodeSender {
  constructor(private readonly mailer: Mailer) {}

  send(message: CodeMessage): Promise<void> {
    return this.mailer.send(codeMail(message));
  }
}

/** Sends e-mail and SMS codes through different senders. */
export class ChannelSender implements CodeSender {
  constructor(private readonly byChannel: Record<CodeChannel, CodeSender>) {}

  send(message: CodeMessage): Promise<void> {
    return this.byChannel[message.channel].send(message);
  }
}

/** The platform's mailer (SMTP) for e-mail when configured; the outbox otherwise, and always for SMS (there is no SMS provider). */
export function codeSenderFor(smtp: Mailer | undefined, outbox: CodeSender): CodeSender {
  if (!smtp) return outbox;
  return new ChannelSender({ email: new MailSender(smtp), sms: outbox });
}
