import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { parseMail } from '../../../test/support/smtp-sink.ts';
import { ManualClock } from '../../platform/clock.ts';
import { createMailer } from './create-mailer.ts';

function memoryLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe('file mailer', () => {
  let root: string;

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'file-mailer-'));
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes each message as a MIME .eml file into a directory it creates', async () => {
    const mailDir = join(root, 'var', 'mail');
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const { logger, lines } = memoryLogger();
    const mailer = createMailer({ smtpUrl: null, mailDir, from: 'Travel <no-reply@travel.test>', clock }, logger);
    const message = {
      to: 'zoe@example.test',
      subject: 'Réinitialisez votre mot de passe',
      text: 'Bonjour Zoé,\nVoici votre lien.',
      html: '<p>Bonjour Zoé,</p><p>Voici votre lien.</p>',
    };

    await mailer.send(message);
    clock.advance(1000);
    await mailer.send({ ...message, subject: 'Deuxième' });

    const files = (await readdir(mailDir)).sort();
    assert.equal(files.length, 2, 'no temporary file is left behind');
    assert.match(files[0]!, /^2026-03-01T10:00:00\.000Z-[0-9a-f]{8}\.eml$/);
    assert.match(files[1]!, /^2026-03-01T10:00:01\.000Z-[0-9a-f]{8}\.eml$/);
    const raw = await readFile(join(mailDir, files[0]!));
    assert.doesNotMatch(raw.toString('latin1'), /[^\r]\n/, 'RFC 822 line breaks are CRLF');
    const mail = parseMail(raw);
    assert.match(mail.headers['content-type']!, /^multipart\/alternative; boundary=/);
    assert.equal(mail.subject, message.subject);
    assert.equal(mail.text, message.text);
    assert.equal(mail.html, message.html);
    assert.equal(mail.headers.to, 'zoe@example.test');
    assert.equal(mail.headers.from, 'Travel <no-reply@travel.test>');
    assert.ok(mail.headers['message-id']);
    assert.deepEqual(
      lines.map((line) => [line.event, line.file]),
      files.map((file) => ['mail.written', join(mailDir, file)]),
    );
  });

  it('writes mails (sign-in tokens inside) readable by the service user only: 0600 files in a 0700 folder', async () => {
    const mailDir = join(root, 'private', 'mail');
    // A folder left open by an earlier version is narrowed as well.
    await mkdir(mailDir, { recursive: true, mode: 0o755 });
    const mailer = createMailer(
      { smtpUrl: null, mailDir, from: 'Travel <no-reply@travel.test>' },
      memoryLogger().logger,
    );
    await mailer.send({ to: 'zoe@example.test', subject: 'Reset', text: 'token', html: '<p>token</p>' });
    const [file] = await readdir(mailDir);
    assert.equal((await stat(join(mailDir, file!))).mode & 0o777, 0o600);
    assert.equal((await stat(mailDir)).mode & 0o777, 0o700);
  });
});
