/**
 * A local stand-in for OneSignal's create-notification endpoint (`POST /notifications`), for tests.
 *
 *   const onesignal = await startFakeOneSignal();
 *   // point the app at it: ONESIGNAL_API_URL=onesignal.url, ONESIGNAL_APP_ID=onesignal.appId, ONESIGNAL_API_KEY=onesignal.apiKey
 *   onesignal.notifications     // notifications actually created: one per idempotency key, repeats excluded
 *   onesignal.requests          // every request: headers, parsed body, the status answered, `repeat`
 *   onesignal.failFor(hex, { status: 429, retryAfter: 2, times: 1 })  // the next request(s) for that external_id fail
 *   onesignal.invalidAlias(hex) // that external_id has no subscription: 200 {id:"", errors:{invalid_aliases:…}}
 *   onesignal.outage([{ status: 500, times: 2 }, { status: 429, seconds: 2 }])  // the whole API fails in turn (below)
 *   onesignal.reset()           // between tests; keeps url, appId and apiKey
 *   await onesignal.close()
 *
 * Like the real API it answers 400 for a wrong app_id, a missing `contents.en` or a malformed body,
 * 403 without `Authorization: Key <apiKey>`, and `{ id, external_id: null }` on success. Any 200 answer
 * is remembered by `idempotency_key`: a repeated key gets the original answer back, creates nothing,
 * and is recorded with `repeat: true`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The create-notification body as sent; only trust these types for requests answered 200. */
export interface OneSignalRequestBody {
  app_id?: string;
  target_channel?: string;
  include_aliases?: { external_id?: string[] };
  headings?: Record<string, string>;
  contents?: Record<string, string>;
  data?: Record<string, unknown>;
  idempotency_key?: string;
  collapse_id?: string;
  [field: string]: unknown;
}

export interface FakeOneSignalRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, or null when the body was not a JSON object. */
  body: OneSignalRequestBody | null;
  rawBody: string;
  status: number;
  response: unknown;
  /** Answered from the idempotency cache: nothing new was sent. */
  repeat: boolean;
}

export interface FakeOneSignalNotification {
  id: string;
  externalIds: string[];
  body: OneSignalRequestBody;
}

export interface FailureBehaviour {
  status: number;
  /** Default: a OneSignal-style `{ errors: [...] }`. */
  body?: unknown;
  /** Seconds, sent as the Retry-After header. */
  retryAfter?: number;
  /** How many requests fail; default every one until reset(). */
  times?: number;
}

/**
 * One step of a provider-wide outage: `times` requests answered `status`; or, for 429, every request
 * within `seconds` of the first one so answered, each with `Retry-After` the seconds left (rounded up),
 * as the app's rate limit does. Steps run in order; afterwards the API answers as usual.
 */
export type OutageStep = { status: number; times: number } | { status: 429; seconds: number };

export interface FakeOneSignal {
  url: string;
  appId: string;
  apiKey: string;
  requests: FakeOneSignalRequest[];
  notifications: FakeOneSignalNotification[];
  failFor(externalId: string, behaviour: FailureBehaviour): void;
  invalidAlias(externalId: string): void;
  outage(steps: OutageStep[]): void;
  reset(): void;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  body: unknown;
  retryAfter?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function startFakeOneSignal(): Promise<FakeOneSignal> {
  const appId = randomUUID();
  const apiKey = `os_v2_app_${randomBytes(24).toString('hex')}`;
  const requests: FakeOneSignalRequest[] = [];
  const notifications: FakeOneSignalNotification[] = [];
  const failures = new Map<string, FailureBehaviour & { remaining: number }>();
  const invalidAliases = new Set<string>();
  const answered = new Map<string, Answer>();
  let outage: { steps: OutageStep[]; answered: number; windowEnd: number | null } | null = null;

  /** The outage's answer to this request, or null once it is over. */
  function outageAnswer(): Answer | null {
    while (outage !== null) {
      const [step] = outage.steps;
      if (step === undefined) {
        outage = null;
        return null;
      }
      if ('seconds' in step) {
        outage.windowEnd ??= Date.now() + step.seconds * 1000;
        const left = outage.windowEnd - Date.now();
        if (left > 0) return { status: 429, body: defaultErrorBody(429), retryAfter: Math.ceil(left / 1000) };
      } else if (outage.answered < step.times) {
        outage.answered++;
        return { status: step.status, body: defaultErrorBody(step.status) };
      }
      outage = { steps: outage.steps.slice(1), answered: 0, windowEnd: null };
    }
    return null;
  }

  function answer(
    path: string,
    headers: IncomingHttpHeaders,
    body: OneSignalRequestBody | null,
  ): Answer & { repeat?: true } {
    if (path !== '/notifications') return { status: 404, body: { errors: ['Not Found'] } };
    if (!body || !String(headers['content-type']).startsWith('application/json') || body.app_id !== appId) {
      return {
        status: 400,
        body: { errors: ['app_id not found. You may be missing a Content-Type: application/json header.'] },
      };
    }
    if (headers.authorization !== `Key ${apiKey}`) {
      return {
        status: 403,
        body: {
          errors: [
            "Access denied.  Please include an 'Authorization: Key <YOUR-API-KEY>' header with a valid API key.",
          ],
        },
      };
    }
    const problem = bodyProblem(body);
    if (problem) return { status: 400, body: { errors: [problem] } };
    const externalIds = body.include_aliases!.external_id!;
    const down = outageAnswer();
    if (down !== null) return down;

    const failing = externalIds.find((id) => failures.has(id));
    if (failing !== undefined) {
      const failure = failures.get(failing)!;
      if (--failure.remaining <= 0) failures.delete(failing);
      return {
        status: failure.status,
        body: failure.body ?? defaultErrorBody(failure.status),
        retryAfter: failure.retryAfter,
      };
    }

    const key = body.idempotency_key;
    const earlier = key === undefined ? undefined : answered.get(key);
    if (earlier) return { ...earlier, repeat: true };

    const invalid = externalIds.filter((id) => invalidAliases.has(id));
    const id = invalid.length === externalIds.length ? '' : randomUUID();
    if (id) notifications.push({ id, externalIds: externalIds.filter((x) => !invalidAliases.has(x)), body });
    return {
      status: 200,
      body: invalid.length
        ? { id, external_id: null, errors: { invalid_aliases: { external_id: invalid } } }
        : { id, external_id: null },
    };
  }

  const server = createServer(async (request, response) => {
    const rawBody = await readBody(request);
    const body = parseBody(rawBody);
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const result =
      request.method === 'POST'
        ? answer(path, request.headers, body)
        : { status: 404, body: { errors: ['Not Found'] } };
    // Every 200 answer is remembered, including a failFor() one, as the real service would.
    if (
      result.status === 200 &&
      !('repeat' in result) &&
      body?.idempotency_key &&
      !answered.has(body.idempotency_key)
    ) {
      answered.set(body.idempotency_key, { status: result.status, body: result.body });
    }
    requests.push({
      method: request.method ?? '',
      path,
      headers: request.headers,
      body,
      rawBody,
      status: result.status,
      response: result.body,
      repeat: 'repeat' in result,
    });
    const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8' };
    if (result.retryAfter !== undefined) headers['Retry-After'] = String(result.retryAfter);
    response.writeHead(result.status, headers).end(JSON.stringify(result.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    appId,
    apiKey,
    requests,
    notifications,
    failFor(externalId, behaviour) {
      failures.set(externalId, { ...behaviour, remaining: behaviour.times ?? Number.POSITIVE_INFINITY });
    },
    invalidAlias(externalId) {
      invalidAliases.add(externalId);
    },
    outage(steps) {
      outage = { steps, answered: 0, windowEnd: null };
    },
    reset() {
      requests.length = 0;
      notifications.length = 0;
      failures.clear();
      invalidAliases.clear();
      answered.clear();
      outage = null;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

function bodyProblem(body: OneSignalRequestBody): string | null {
  const aliases = body.include_aliases?.external_id;
  if (!Array.isArray(aliases) || aliases.length === 0 || !aliases.every((id) => typeof id === 'string' && id !== '')) {
    return 'You must include which players, segments, or tags you wish to send this notification to.';
  }
  if (aliases.length > 20_000) return 'include_aliases is limited to 20000 entries';
  if (body.target_channel !== 'push') return 'target_channel is required when using include_aliases';
  if (!isStringMap(body.contents) || !body.contents.en)
    return 'Message Notifications must have English language content';
  if (body.headings !== undefined && !isStringMap(body.headings)) return 'headings must be an object of language codes';
  if (
    body.idempotency_key !== undefined &&
    (typeof body.idempotency_key !== 'string' || !UUID.test(body.idempotency_key))
  ) {
    return 'idempotency_key must be a valid UUID';
  }
  return null;
}

function isStringMap(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && Object.values(value).every((text) => typeof text === 'string');
}

function defaultErrorBody(status: number): unknown {
  return { errors: [status === 429 ? 'API rate limit exceeded.' : (STATUS_CODES[status] ?? 'Error')] };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string): OneSignalRequestBody | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as OneSignalRequestBody)
      : null;
  } catch {
    return null;
  }
}
