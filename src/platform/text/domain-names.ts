/**
 * Domain names as domain blocks keep them (federation's instance blocks, a user's own blocks): lower
 * case, IDNA (punycode, as URL parsing gives it), no port, path or credentials. A block of a domain
 * covers its subdomains (a block of `example.social` covers `media.example.social`), as Mastodon's do.
 */

/** The longest domain name DNS allows. */
export const domainMaxLength = 253;

const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The domain a user or operator typed (`Example.Social`, `https://example.social/@ana`,
 * `bücher.example:443`) normalized, or null when it names none (an IPv6 literal, a bare word with
 * no dot that is not an address, credentials, spaces).
 */
export function normalizeDomain(input: string): string | null {
  const text = input.trim();
  if (text === '' || /\s/.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text.includes('://') ? text : `http://${text}`);
  } catch {
    return null;
  }
  if (url.username !== '' || url.password !== '') return null;
  const host = url.hostname.replace(/\.$/, '');
  if (host.length === 0 || host.length > domainMaxLength || host.startsWith('[')) return null;
  const labels = host.split('.');
  if (labels.length < 2 || !labels.every((part) => label.test(part))) return null;
  return host;
}

/** The domain of a URL's host or a handle's host part (`127.0.0.1:8080` -> `127.0.0.1`), lower case. */
export function domainOfHost(host: string): string {
  return host.replace(/:\d+$/, '').replace(/\.$/, '').toLowerCase();
}

/** The domain of a remote handle (`ana@Mastodon.Example:8443` -> `mastodon.example`), or null. */
export function domainOfHandle(handle: string): string | null {
  const at = handle.lastIndexOf('@');
  return at < 0 ? null : domainOfHost(handle.slice(at + 1));
}

/**
 * The domains whose block covers `domain`: itself and each parent (`a.b.example` -> `a.b.example`,
 * `b.example`, `example`); an IPv4 address only itself.
 */
export function coveringDomains(domain: string): string[] {
  if (/^\d+(\.\d+){3}$/.test(domain)) return [domain];
  const labels = domain.split('.');
  return labels.map((_, index) => labels.slice(index).join('.'));
}
