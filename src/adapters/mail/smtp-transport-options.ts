import { createRequire } from 'node:module';
import type { SMTPTransportOptions } from 'nodemailer';

/**
 * nodemailer's URL parser, loaded when an SMTP mailer is made: importing nodemailer/lib/shared at
 * start cost every start about 0.1 s (its ES build imports node:http, which loads Node's fetch).
 */
const parseConnectionUrl = (url: string): SMTPTransportOptions =>
  (
    createRequire(import.meta.url)('nodemailer/lib/shared') as typeof import('nodemailer/lib/shared')
  ).parseConnectionUrl(url);

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase()) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * nodemailer options for an `SMTP_URL`. `smtps://` is TLS from the first byte; `smtp://` must upgrade
 * with STARTTLS, except on loopback (a local relay or test sink usually has no certificate).
 * Query parameters pass through to nodemailer, e.g. `?requireTLS=false` or `?tls.rejectUnauthorized=false`.
 */
export function smtpTransportOptions(smtpUrl: string): SMTPTransportOptions {
  const url = new URL(smtpUrl);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new Error(`SMTP_URL must start with smtp:// or smtps:// (got ${url.protocol}//)`);
  }
  const options: SMTPTransportOptions = { ...parseConnectionUrl(smtpUrl) };
  if (url.protocol === 'smtp:' && !isLoopbackHost(url.hostname)) options.requireTLS ??= true;
  options.connectionTimeout ??= 10_000;
  options.greetingTimeout ??= 10_000;
  options.socketTimeout ??= 30_000;
  return options;
}
