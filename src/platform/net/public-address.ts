/**
 * Whether a push endpoint may be reached: Web Push endpoints come from browsers, that is from users,
 * so a request to one must never reach this server's own network (SSRF). An endpoint is `https` and
 * every address its host resolves to is public, unless the operator allows the host by name
 * (WEB_PUSH_ALLOWED_HOSTS, for a push service of their own network, and the tests' local one).
 * The check runs at registration and again at each send, on the address the request then connects to.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Special-purpose ranges (IANA's IPv4 and IPv6 registries) that are not the public internet; two lists,
 * since a BlockList matches every IPv4 address against an IPv4-mapped IPv6 range.
 */
const notPublicV4 = new BlockList();
const notPublicV6 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const) {
  notPublicV4.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96], // IPv4-mapped: refused whatever the IPv4 address (a public one has its own form)
  ['64:ff9b::', 96], // NAT64 reaches IPv4 addresses behind it
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo and others)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 carries an IPv4 address
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  notPublicV6.addSubnet(network, prefix, 'ipv6');
}

/** True for an address of the public internet (IPv4 or IPv6 literal); false for any other or a non-address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return family === 4 ? !notPublicV4.check(address, 'ipv4') : !notPublicV6.check(address, 'ipv6');
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type AddressLookup = (host: string) => Promise<ResolvedAddress[]>;

export const systemLookup: AddressLookup = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

/** Why an endpoint is refused: the text goes into the 422's detail and the flush's log line. */
export class EndpointRefused extends Error {
  override readonly name = 'EndpointRefused';
}

/** The host of a URL as DNS and the allow list know it: lower case, without IPv6 brackets or a final dot. */
export function endpointHost(url: URL): string {
  return url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * The address to connect to for an endpoint: the first one its host resolves to, once every answer
 * is public (one private answer refuses the host: a resolver may answer differently next time).
 * Throws EndpointRefused for a URL that is not https, a host that does not resolve, or a private address.
 */
export async function resolvePublicEndpoint(
  endpoint: string,
  allowedHosts: readonly string[],
  lookup: AddressLookup = systemLookup,
): Promise<ResolvedAddress> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new EndpointRefused('the endpoint is not a URL');
  }
  if (url.protocol !== 'https:') throw new EndpointRefused('the endpoint must be an https URL');
  if (url.username !== '' || url.password !== '') throw new EndpointRefused('the endpoint must not carry credentials');
  const host = endpointHost(url);
  const allowed = allowedHosts.includes(host);
  const literal = isIP(host);
  let answers: ResolvedAddress[];
  if (literal !== 0) {
    answers = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      answers = await lookup(host);
    } catch {
      throw new EndpointRefused(`the endpoint's host ${host} does not resolve`);
    }
  }
  const [first] = answers;
  if (first === undefined) throw new EndpointRefused(`the endpoint's host ${host} does not resolve`);
  if (!allowed) {
    const closed = answers.find(({ address }) => !isPublicAddress(address));
    if (closed) throw new EndpointRefused(`the endpoint's host ${host} resolves to a non-public address`);
  }
  return first;
}
