/**
 * The network an anonymous visitor's clicks are counted by (docs/api.md, "Duplicates"): an IPv4
 * address itself, an IPv6 address by its /64 (one household or phone is given a whole /64 and picks
 * its own addresses inside it), an IPv4-mapped IPv6 address as its IPv4 address.
 */
import { isIPv4, isIPv6 } from 'node:net';

export function visitorNetworkOf(ip: string): string {
  const address = ip.replace(/%.*$/, ''); // an IPv6 zone (fe80::1%eth0) names the interface, not the host
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined && isIPv4(mapped)) return mapped;
  if (!isIPv6(address)) return address;
  return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, in lowercase hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  const groupsOf = (part: string) =>
    part === '' ? [] : part.split(':').flatMap((group) => (group.includes('.') ? ipv4Groups(group) : [group]));
  const [head = '', tail] = address.split('::');
  const written = groupsOf(head);
  const after = tail === undefined ? [] : groupsOf(tail);
  const zeros = Array.from({ length: 8 - written.length - after.length }, () => '0');
  return [...written, ...zeros, ...after].map((group) => Number.parseInt(group, 16).toString(16));
}

/** An IPv4 address ending an IPv6 one (::ffff:192.0.2.1, 64:ff9b::192.0.2.1): its two groups. */
function ipv4Groups(dotted: string): string[] {
  const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}
