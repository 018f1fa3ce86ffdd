/**
 * The inboxes' refusal of rejected domains (domain-blocks.service.ts): a POST whose signature names a
 * key on a rejected domain (read as inbox-rate-limits.ts reads it, before the signature is checked, so
 * no key is fetched), or whose activity's actor is on one, is answered 403 before Fedify sees it.
 */
import { senderDomainOf } from './inbox-rate-limits.ts';

export interface InboxGateDeps {
  rejects(host: string): Promise<boolean>;
}

/** The activity's actor's host, read from the body as it arrived; null when it names none. */
async function actorHostOf(request: Request): Promise<string | null> {
  try {
    const activity = JSON.parse(await request.clone().text()) as { actor?: unknown };
    const actor = activity.actor;
    const id = typeof actor === 'string' ? actor : (actor as { id?: unknown } | null | undefined)?.id;
    return typeof id === 'string' ? new URL(id).host : null;
  } catch {
    return null;
  }
}

/** 403 for a delivery from, or acting for, a rejected domain; null to let it through. */
export async function inboxRefusal(deps: InboxGateDeps, request: Request): Promise<Response | null> {
  if (request.method !== 'POST') return null;
  const keyHost = senderDomainOf({
    method: request.method,
    headers: {
      signature: request.headers.get('signature') ?? undefined,
      'signature-input': request.headers.get('signature-input') ?? undefined,
    },
  });
  const hosts = new Set([keyHost, await actorHostOf(request)].filter((host) => host !== null));
  for (const host of hosts) {
    if (await deps.rejects(host)) {
      return new Response(JSON.stringify({ error: 'This server does not accept activities from your domain.' }), {
        status: 403,
        headers: { 'content-type': 'application/json' },
      });
    }
  }
  return null;
}
