/**
 * An SMTP server on loopback that keeps every message it receives, for tests.
 *
 *   const sink = await startSmtpSink();
 *   // point the app at it: SMTP_URL=sink.url (plain SMTP, no STARTTLS, no authentication needed)
 *   const mail = await sink.waitForMessage((m) => m.to.includes('ana@example.com'));
 *   mail.subject; mail.text; mail.html; mail.headers['message-id']; mail.raw
 *   sink.refuse(true);   // a mail server that is down: every connection is refused (421) until refuse(false)
 *   sink.hold(true);     // a server that stops answering: each message's data is read, never acknowledged
 *   sink.held            // the envelopes of the messages it holds (envelope sender, recipients)
 *   sink.dropHeld();     // ends them with 421, as a server does when its client stops talking (nothing kept)
 *   sink.clear();        // between tests
 *   await sink.close();
 *
 * `parseMail(raw)` is the small MIME reader behind it (mailparser is not installed): headers with
 * RFC 2047 encoded words, nested multipart bodies, quoted-printable and base64, any charset
 * TextDecoder knows. It is enough for what nodemailer writes, not for arbitrary mail.
 */
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { createMailer, type Mailer } from '../../src/adapters/mail/index.ts';

export interface ParsedMail {
  /** Lower-case header names; unfolded, decoded values; the first one when a header repeats. */
  headers: Record<string, string>;
  subject: string;
  /** The first text/plain part that is not an attachment, line breaks as \n; '' when absent. */
  text: string;
  /** The first text/html part that is not an attachment, line breaks as \n; '' when absent. */
  html: string;
}

export interface SinkMessage extends ParsedMail {
  /** Envelope sender (MAIL FROM). */
  from: string;
  /** Envelope recipients (RCPT TO). */
  to: string[];
  raw: string;
}

export interface SmtpSink {
  url: string;
  messages: SinkMessage[];
  /** The first message, received already or later, that matches; rejects after timeoutMs (default 5 s). */
  waitForMessage(predicate?: (message: SinkMessage) => boolean, timeoutMs?: number): Promise<SinkMessage>;
  /** While true, every connection gets 421 (service not available) and no message is kept. */
  refuse(refusing: boolean): void;
  /** While true, each message's data is read and then left unanswered, until `dropHeld()`. */
  hold(holding: boolean): void;
  readonly held: { from: string; to: string[] }[];
  /** Answers every held message 421 (not accepted, nothing kept). */
  dropHeld(): void;
  clear(): void;
  close(): Promise<void>;
}

/** The service's real SMTP mailer, pointed at `smtpUrl` (a sink's, or a closed port's). */
export function smtpMailer(smtpUrl: string): Mailer {
  return createMailer(
    { smtpUrl, mailDir: mkdtempSync(join(tmpdir(), 'tms-mail-')), from: 'Travel Media <no-reply@example.test>' },
    pino({ level: 'silent' }),
  );
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  const waiters = new Set<(message: SinkMessage) => void>();
  let refusing = false;
  let holding = false;
  const held: { from: string; to: string[]; end: () => void }[] = [];

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      if (!refusing) return callback();
      callback(Object.assign(new Error('service not available'), { responseCode: 421 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        if (holding) {
          const refused = Object.assign(new Error('connection timed out'), { responseCode: 421 });
          held.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            end: () => callback(refused),
          });
          return;
        }
        const raw = Buffer.concat(chunks);
        const message: SinkMessage = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: raw.toString('utf8'),
          ...parseMail(raw),
        };
        messages.push(message);
        for (const waiter of [...waiters]) waiter(message);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForMessage(predicate = () => true, timeoutMs = 5000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching mail within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        const waiter = (message: SinkMessage) => {
          if (!predicate(message)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(message);
        };
        waiters.add(waiter);
      });
    },
    refuse(value) {
      refusing = value;
    },
    hold(value) {
      holding = value;
    },
    held,
    dropHeld() {
      for (const message of held.splice(0)) message.end();
    },
    clear() {
      messages.length = 0;
    },
    close() {
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

interface Entity {
  headers: Record<string, string>;
  /** The body as a binary string: one char per byte. */
  body: string;
}

export function parseMail(raw: Buffer | string): ParsedMail {
  const bytes = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
  const entity = parseEntity(bytes.toString('latin1'));
  const found = { text: '', html: '' };
  collectTextParts(entity, found);
  return { headers: entity.headers, subject: entity.headers.subject ?? '', ...found };
}

function parseEntity(binary: string): Entity {
  const split = /\r?\n\r?\n/.exec(binary);
  const headerBlock = split ? binary.slice(0, split.index) : binary;
  const body = split ? binary.slice(split.index + split[0].length) : '';
  const headers: Record<string, string> = {};
  for (const line of headerBlock.replace(/\r?\n(?=[ \t])/g, '').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    // Raw 8-bit header bytes are taken as UTF-8 (SMTPUTF8); encoded words are decoded next.
    headers[name] ??= decodeEncodedWords(Buffer.from(line.slice(colon + 1).trim(), 'latin1').toString('utf8'));
  }
  return { headers, body };
}

function collectTextParts(entity: Entity, found: { text: string; html: string }): void {
  const { value: type, params } = parseHeaderValue(entity.headers['content-type'] ?? 'text/plain');
  if (type.startsWith('multipart/')) {
    if (!params.boundary) return;
    for (const part of splitMultipart(entity.body, params.boundary)) collectTextParts(parseEntity(part), found);
    return;
  }
  if (parseHeaderValue(entity.headers['content-disposition'] ?? 'inline').value === 'attachment') return;
  const field = type === 'text/plain' ? 'text' : type === 'text/html' ? 'html' : null;
  if (!field || found[field]) return;
  const bytes = decodeTransfer(entity.body, entity.headers['content-transfer-encoding'] ?? '7bit');
  found[field] = decodeCharset(bytes, params.charset).replace(/\r\n/g, '\n');
}

function splitMultipart(body: string, boundary: string): string[] {
  const parts: string[] = [];
  let current: string[] | null = null; // null until the first delimiter: the preamble is skipped
  for (const line of body.split(/\r?\n/)) {
    const trimmed = line.trimEnd();
    if (trimmed === `--${boundary}` || trimmed === `--${boundary}--`) {
      if (current) parts.push(current.join('\r\n'));
      if (trimmed.endsWith(`${boundary}--`)) return parts;
      current = [];
    } else {
      current?.push(line);
    }
  }
  if (current) parts.push(current.join('\r\n'));
  return parts;
}

/** `text/plain; charset="utf-8"` → { value: 'text/plain', params: { charset: 'utf-8' } } */
function parseHeaderValue(header: string): { value: string; params: Record<string, string> } {
  const [value = '', ...rest] = header.split(';');
  const params: Record<string, string> = {};
  for (const param of rest) {
    const equals = param.indexOf('=');
    if (equals < 0) continue;
    const name = param.slice(0, equals).trim().toLowerCase();
    params[name] = param
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
  }
  return { value: value.trim().toLowerCase(), params };
}

function decodeTransfer(body: string, encoding: string): Buffer {
  switch (encoding.trim().toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
    case 'quoted-printable':
      return quotedPrintableBytes(body.replace(/[ \t]+(?=\r?\n)/g, '').replace(/=\r?\n/g, ''));
    default:
      return Buffer.from(body, 'latin1');
  }
}

function quotedPrintableBytes(binary: string): Buffer {
  return Buffer.from(
    binary.replace(/=([0-9A-Fa-f]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  );
}

function decodeCharset(bytes: Buffer, charset = 'utf-8'): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

const ENCODED_WORD = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;

/**
 * RFC 2047: `=?UTF-8?Q?Bienvenue_=C3=A0?= =?UTF-8?Q?_bord?=`. Whitespace between adjacent encoded
 * words is dropped, and their bytes are joined before decoding, since a character may span two words.
 */
function decodeEncodedWords(value: string): string {
  const segments: Array<string | { charset: string; bytes: Buffer }> = [];
  let last = 0;
  for (const match of value.matchAll(ENCODED_WORD)) {
    const [, charsetAndLanguage = '', encoding = '', text = ''] = match;
    const charset = charsetAndLanguage.split('*')[0]!.toLowerCase();
    const bytes =
      encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : quotedPrintableBytes(text.replace(/_/g, ' '));
    const between = value.slice(last, match.index);
    const previous = segments.at(-1);
    const adjacent = typeof previous === 'object' && between.trim() === '';
    if (adjacent && previous.charset === charset) {
      previous.bytes = Buffer.concat([previous.bytes, bytes]);
    } else {
      if (!adjacent) segments.push(between);
      segments.push({ charset, bytes });
    }
    last = match.index + match[0].length;
  }
  segments.push(value.slice(last));
  return segments
    .map((segment) => (typeof segment === 'string' ? segment : decodeCharset(segment.bytes, segment.charset)))
    .join('');
}
