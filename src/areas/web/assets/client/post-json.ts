/// <reference lib="dom" />
/** The pages' JSON writes to this site (the security page's cookie routes). */

interface ErrorDocument {
  errors?: Array<{ title?: string }>;
}

/**
 * POSTs `body` as JSON with the session cookie and the page's language: the answer's document ({} for
 * none), or throws the service's translated title of its error, or `networkError` when nothing came back.
 */
export async function postJson(url: string, body: unknown, locale: string, networkError: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Accept-Language': locale },
      body: JSON.stringify(body),
    });
  } catch {
    throw new Error(networkError);
  }
  const document = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error((document as ErrorDocument).errors?.[0]?.title ?? `${response.status}`);
  return document;
}
