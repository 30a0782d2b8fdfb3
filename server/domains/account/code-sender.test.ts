import nodemailer from 'nodemailer';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../platform/db/connect';
import { openMemoryDatabase } from '../../testing';
import {
  ChannelSender,
  type CodeMessage,
  type CodeSender,
  codeSenderFor,
  MailSender,
  OutboxSender,
} from './code-sender';
import { OutboxMailer, SmtpMailer } from './mail';
import { withAccount } from './tables';

const message: CodeMessage = {
  channel: 'email',
  address: 'a@example.com',
  scene: 'register',
  code: '123456',
  lang: 'de',
};

describe('code delivery', () => {
  let handle: DatabaseHandle;
  beforeEach(async () => {
    handle = await openMemoryDatabase();
  });
  afterEach(() => handle.db.destroy());

  it('the outbox stores the plain code with its address, scene and time, and logs it', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    await new OutboxSender(handle.db, () => 42, log).send({
      ...message,
      channel: 'sms',
      address: '+4915100000000',
      code: '909090',
    });
    const rows = await withAccount(handle.db).selectFrom('code_outbox').selectAll().execute();
    expect(rows).toEqual([
      { id: 1, channel: 'sms', address: '+4915100000000', scene: 'register', code: '909090', created_at: 42 },
    ]);
    expect(lines.join('')).toContain('+4915100000000');
    expect(lines.join('')).toContain('909090');
  });

  it('e-mails the code in the language of the request', async () => {
    const transport = nodemailer.createTransport({ jsonTransport: true });
    const sent: string[] = [];
    const original = transport.sendMail.bind(transport);
    transport.sendMail = (async (mail: nodemailer.SendMailOptions) => {
      const info = await original(mail);
      sent.push(String(info.message));
      return info;
    }) as typeof transport.sendMail;
    await new MailSender(new SmtpMailer(handle.db, transport, 'TradeWave <no-reply@example.com>')).send(message);
    const mail = JSON.parse(sent[0] ?? '{}');
    expect(mail.subject).toBe('Dein Bestätigungscode');
    expect(mail.text).toContain('123456');
    expect(mail.to[0].address).toBe('a@example.com');
    expect(mail.from.address).toBe('no-reply@example.com');
  });

  it('routes by channel: SMS always to the outbox, e-mail to SMTP when configured', async () => {
    const calls: string[] = [];
    const fake = (name: string): CodeSender => ({ send: async (m) => void calls.push(`${name}:${m.channel}`) });
    const sender = new ChannelSender({ email: fake('mail'), sms: fake('outbox') });
    await sender.send(message);
    await sender.send({ ...message, channel: 'sms' });
    expect(calls).toEqual(['mail:email', 'outbox:sms']);

    const outbox = fake('outbox');
    expect(codeSenderFor(undefined, outbox)).toBe(outbox);
    const log = pino({ level: 'silent' });
    expect(codeSenderFor(new OutboxMailer(handle.db, () => 1, log), outbox)).toBeInstanceOf(ChannelSender);
  });

  it('puts an e-mail code, as the e-mail it would be, in the mail outbox, with the anti-phishing code first', async () => {
    await handle.db
      .insertInto('users')
      .values({
        username: 'a',
        email: 'a@example.com',
        password_hash: 'x',
        invite_code: 'AAAA',
        lang: 'de',
        created_at: 1,
        anti_phishing: 'Blaue Möwe 7',
      })
      .execute();
    const log = pino({ level: 'silent' });
    const mailer = new OutboxMailer(handle.db, () => 42, log);
    await new OutboxSender(handle.db, () => 42, log, mailer).send(message);
    await new OutboxSender(handle.db, () => 43, log, mailer).send({ ...message, address: 'b@example.com', lang: 'en' });
    const mails = await withAccount(handle.db).selectFrom('mail_outbox').selectAll().orderBy('id').execute();
    expect(mails.map((m) => [m.address, m.subject])).toEqual([
      ['a@example.com', 'Dein Bestätigungscode'],
      ['b@example.com', 'Your verification code'],
    ]);
    expect(mails[0]?.body.split('\n')[0]).toBe('Dein Anti-Phishing-Code: Blaue Möwe 7');
    expect(mails[0]?.body).toContain('123456');
    // No phrase set: the e-mail as it was.
    expect(mails[1]?.body.startsWith('Your verification code is 123456')).toBe(true);
  });
});
