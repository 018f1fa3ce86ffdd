import { createHash, randomBytes } from 'node:crypto';
import { visitorNetworkOf } from './visitor-network.ts';

/** A click reference: 16 random bytes as 22 base64url characters; it says nothing about the click. */
export const newClickRef = (): string => randomBytes(16).toString('base64url');

export const isClickRef = (value: string): boolean => /^[A-Za-z0-9_-]{22}$/.test(value);

/**
 * The key of an anonymous visitor for duplicate clicks: a hash of its network (visitorNetworkOf), never
 * the IP itself. The User-Agent is left out: changing it must not make a new visitor.
 */
export const visitorKeyOf = (ip: string): string =>
  createHash('sha256')
    .update(`network\n${visitorNetworkOf(ip)}`)
    .digest('base64url');

/** The lock row of one clicker on one offer and media (tracking_click_locks): a hash, no id in clear. */
export const clickerLockKey = (
  offerId: string,
  mediaId: string | null,
  clicker: { viewerId: string } | { visitorKey: string },
  bot: boolean,
): string =>
  createHash('sha256')
    .update(
      `${offerId}\n${mediaId ?? '-'}\n${bot}\n${'viewerId' in clicker ? `u:${clicker.viewerId}` : `v:${clicker.visitorKey}`}`,
    )
    .digest('base64url');
