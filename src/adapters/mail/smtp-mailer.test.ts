import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { type SmtpSink, startSmtpSink } from '../../../test/support/smtp-sink.ts';
import { ManualClock } from '../../platform/clock.ts';
import { createMailer } from './create-mailer.ts';

function memoryLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

const message = {
  to: 'zoe@example.test',
  subject: 'Confirmez votre adresse — bienvenue à bord, Zoé !',
  text: 'Bonjour Zoé,\n\nÀ très bientôt, l’équipe.',
  html: '<p>Bonjour Zoé,</p><p>À très bientôt, l’équipe.</p>',
};

describe('SMTP mailer', () => {
  let sink: SmtpSink;

  before(async () => {
    sink = await startSmtpSink();
  });
  after(async () => {
    await sink.close();
  });

  it('delivers subject, text and HTML with accents intact', async () => {
    const { logger, lines } = memoryLogger();
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const mailer = createMailer(
      { smtpUrl: sink.url, mailDir: '/nonexistent', from: 'Travel <no-reply@travel.test>', clock },
      logger,
    );

    await mailer.send(message);
    const mail = await sink.waitForMessage((m) => m.to.includes('zoe@example.test'));

    assert.equal(mail.from, 'no-reply@travel.test');
    assert.deepEqual(mail.to, ['zoe@example.test']);
    assert.equal(mail.subject, message.subject);
    assert.equal(mail.text, message.text);
    assert.equal(mail.html, message.html);
    assert.equal(mail.headers.from, 'Travel <no-reply@travel.test>');
    assert.equal(mail.headers.date, 'Sun, 01 Mar 2026 10:00:00 +0000');
    assert.deepEqual(
      lines.map((line) => [line.event, line.to, line.subject]),
      [['mail.sent', message.to, message.subject]],
    );
  });

  it('rejects when the SMTP server cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const mailer = createMailer(
      { smtpUrl: `smtp://127.0.0.1:${port}`, mailDir: '/nonexistent', from: 'a@travel.test' },
      memoryLogger().logger,
    );

    await assert.rejects(mailer.send(message), /ECONNREFUSED/);
  });
});

describe('SMTP sink', () => {
  it('times out waiting for a message that never comes', async () => {
    const sink = await startSmtpSink();
    try {
      await assert.rejects(
        sink.waitForMessage(() => true, 20),
        /no matching mail within 20 ms/,
      );
    } finally {
      await sink.close();
    }
  });
});
