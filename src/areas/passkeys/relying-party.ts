/**
 * Who the passkeys are for (WebAuthn's relying party): its id is the host of PUBLIC_URL and the only
 * origin accepted is PUBLIC_URL's origin, so a response made for another site, or for this site under
 * another address, is refused.
 */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

/** The name authenticators show beside the account (the web pages' site name). */
const relyingPartyName = 'Travel Media';

export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name: relyingPartyName };
}
