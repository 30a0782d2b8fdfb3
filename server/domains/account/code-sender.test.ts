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
    await new MailSender(transport, 'TradeWave <no-reply@example.com>').send(message);
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
    expect(codeSenderFor({ url: 'smtp://localhost:2525', from: 'x@y.z' }, outbox)).toBeInstanceOf(ChannelSender);
  });
});
