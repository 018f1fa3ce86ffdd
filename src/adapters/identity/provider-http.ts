/** Every call to a provider: one GET with a bounded time, JSON answer, failures sorted for the caller. */
import { IdentityProviderUnavailable } from './identity-provider.ts';

export interface ProviderAnswer {
  status: number;
  body: unknown;
}

/**
 * GETs `url` within `timeoutMs` (the whole exchange, body included). A timeout, a network error, a
 * 5xx or a body that is not a JSON object throws IdentityProviderUnavailable; a 4xx is returned to the
 * caller, whose provider knows what it means.
 */
export async function getJson(url: string, timeoutMs: number): Promise<ProviderAnswer> {
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { signal, headers: { accept: 'application/json' }, redirect: 'error' });
    text = await response.text();
  } catch (error) {
    const what = signal.aborted ? `no answer within ${timeoutMs} ms` : 'request failed';
    throw new IdentityProviderUnavailable(`${new URL(url).origin}: ${what}`, { cause: error });
  }
  if (response.status >= 500) {
    throw new IdentityProviderUnavailable(`${new URL(url).origin}: answered ${response.status}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new IdentityProviderUnavailable(`${new URL(url).origin}: answered ${response.status} without JSON`, {
      cause: error,
    });
  }
  // Every provider endpoint answers an object; `null`, an array or a scalar is a provider gone wrong.
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new IdentityProviderUnavailable(`${new URL(url).origin}: answered ${response.status} without a JSON object`);
  }
  return { status: response.status, body };
}
