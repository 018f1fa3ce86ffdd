/**
 * Where the queue may deliver (docs/operations.md, Federation, Private addresses). Fedify's document
 * loader fetches only public addresses unless FEDERATION_ALLOW_PRIVATE_ADDRESS is on, but it posts a
 * delivery to whatever inbox a remote actor's document names: an actor could name an inbox on this
 * server's own network (a cloud metadata service, the database, an admin port) and have the queue
 * POST signed requests there. So, with the setting off, the queue asks `isPublicInbox` before each
 * delivery, and drops one to an inbox whose host is, or resolves to, an address that is not public.
 */
import { isIP } from 'node:net';
import { type AddressLookup, endpointHost, isPublicAddress, systemLookup } from '../../platform/net/public-address.ts';

/**
 * False for an inbox that is not http(s), `localhost`, or whose host is or resolves to an address
 * that is not public (one private answer is enough). A host that does not resolve now is left to
 * Fedify, whose delivery fails the same way and is retried (and asked about again).
 */
export async function isPublicInbox(inbox: URL, lookup: AddressLookup = systemLookup): Promise<boolean> {
  if (inbox.protocol !== 'https:' && inbox.protocol !== 'http:') return false;
  const host = endpointHost(inbox);
  if (host === 'localhost' || host.endsWith('.localhost')) return false;
  if (isIP(host) !== 0) return isPublicAddress(host);
  const answers = await lookup(host).catch(() => []);
  return answers.every(({ address }) => isPublicAddress(address));
}
