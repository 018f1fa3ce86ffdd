/**
 * The federated paths' rate limits: per IP first (any path), then per sending domain for deliveries
 * (a POST), the domain read from the signature's key id (HTTP Signatures' `keyId`, RFC 9421's `keyid`)
 * before the signature is checked, so a flood is refused before any key is fetched. A sender that
 * names another's domain can make that domain wait (its server retries later) but never makes the
 * instance do more work than the per-IP limit allows.
 */
import type { FastifyRequest } from 'fastify';
import { perIp, type RateLimitRule } from '../../platform/http/rate-limit.ts';

/** Requests one IP may make a minute on the federated paths (a busy server's deliveries included). */
export const federationPerIpPerMinute = 600;
/** Deliveries one domain may make a minute to the inboxes. */
export const inboxPerDomainPerMinute = 300;

const keyIdPattern = /keyid="([^"]+)"/i;

/** The host of the key a delivery says it is signed with, lower-cased; null when it names none. */
export function senderDomainOf(request: Pick<FastifyRequest, 'method' | 'headers'>): string | null {
  if (request.method !== 'POST') return null;
  for (const header of [request.headers.signature, request.headers['signature-input']]) {
    const keyId = keyIdPattern.exec(String(header ?? ''))?.[1];
    if (keyId === undefined) continue;
    try {
      return new URL(keyId).host.toLowerCase();
    } catch {
      return null;
    }
  }
  return null;
}

export const federationRateLimits: RateLimitRule[] = [
  perIp('federation', federationPerIpPerMinute, 60),
  { name: 'federation-inbox:domain', max: inboxPerDomainPerMinute, windowSeconds: 60, key: senderDomainOf },
];
