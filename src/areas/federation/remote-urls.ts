/**
 * Other servers' URLs as federation keeps them (avatars, remote posts' links and images): http(s) only,
 * at most `remoteUrlMaxLength` characters; anything else (javascript:, data:, a relative URL) is dropped.
 * They are kept to be shown to clients, and never fetched by this server.
 */

export const remoteUrlMaxLength = 2048;

export function httpUrlOf(url: URL | string | null | undefined): string | null {
  if (url == null) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  return parsed.href.length > remoteUrlMaxLength ? null : parsed.href;
}

/**
 * A document loader for reading embedded objects only (an actor's icon, a note's attachments): asked
 * for anything not embedded, it refuses, so no image or document is ever fetched from its URL.
 */
export const refuseToFetch = async (url: string): Promise<never> => {
  throw new Error(`not fetched: ${url}`);
};
