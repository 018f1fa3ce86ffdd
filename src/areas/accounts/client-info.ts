/** What a sign-in knows of the client it opens a session for. */
import type { FastifyRequest } from 'fastify';
import type { Locale } from '../../platform/i18n/i18n.ts';

export interface ClientInfo {
  ip: string;
  userAgent: string | null;
  /** The request's language: the mails a sign-in files (a new device, a recovery code used) are in it. */
  locale?: Locale;
}

export const clientInfo = (request: FastifyRequest): ClientInfo => ({
  ip: request.ip,
  userAgent: request.headers['user-agent']?.slice(0, 512) ?? null,
  locale: request.locale,
});
