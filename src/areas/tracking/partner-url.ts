/**
 * The redirect target: the offer's stored partner URL with the click reference appended as `tm_ref`,
 * re-checked at redirect time (http or https only, no credentials, else null: never an open or script
 * redirect). The stored text is kept as it is (its own query and fragment included): the parameter
 * goes at the end of the query, before any fragment. A stored URL with characters a header cannot
 * carry is written in its normalized (percent-encoded) form first.
 */
export const refParameter = 'tm_ref';

export function partnerRedirectUrl(partnerUrl: string, ref: string): string | null {
  if (!URL.canParse(partnerUrl)) return null;
  const url = new URL(partnerUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username !== '' || url.password !== '' || url.hostname === '') return null;
  const text = /^[\x21-\x7e]+$/.test(partnerUrl) ? partnerUrl : url.href;
  const hashAt = text.indexOf('#');
  const beforeHash = hashAt === -1 ? text : text.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : text.slice(hashAt);
  const separator = !beforeHash.includes('?') ? '?' : beforeHash.endsWith('?') || beforeHash.endsWith('&') ? '' : '&';
  return `${beforeHash}${separator}${refParameter}=${encodeURIComponent(ref)}${fragment}`;
}
