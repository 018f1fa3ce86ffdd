/**
 * Declarative routes: one definition per route names its method, path (in the interface's `{param}`
 * style), auth, parameters, query, body, keyset list, the error codes it can answer, its success
 * status and schema, and the handler. That one definition drives validation, serialization, the
 * OpenAPI document (errors and operationId included) and the route list.
 *
 *   export const markRead = route({
 *     method: 'PATCH', path: '/api/users/me/notifications/{id}/read', auth: 'user',
 *     summary: 'Mark one of my notifications read (idempotent)',
 *     params: { id: idParam('The notification UUID', { hex: false }) },
 *     errors: ['notFound'],
 *     success: { status: 200, schema: DocumentSchema(NotificationSchema) },
 *     handler: async ({ viewer, params }) => ...,   // viewer: Viewer (non-null) on 'user' routes
 *   });
 *
 * Errors every route of a kind can answer are added by construction (see `implicitErrors`).
 */
import type { FastifyReply, FastifyRequest, preValidationHookHandler } from 'fastify';
import { type Static, type TObject, type TProperties, type TSchema, Type } from 'typebox';
import type { Keyset } from '../db/keyset.ts';
import type { Page } from '../db/page.ts';
import type { PageRequest } from '../db/page-request.ts';
import type { Locale } from '../i18n/i18n.ts';
import { isLowercaseUuid, parseUuidOrHex } from '../ids/ids.ts';
import { closedDuringMaintenance } from '../maintenance/maintenance-paths.ts';
import { Answer } from './answers.ts';
import { AppError, type ErrorCode, errorCatalogue } from './error-catalogue.ts';
import type { Links } from './jsonapi.ts';
import { pageLinks } from './page-links.ts';
import { pageQuerySchema, pageRequest } from './page-query.ts';
import type { RateLimitRule } from './rate-limit.ts';
import type { App, RouteAuth, Success, Viewer } from './types.ts';

export type { Success } from './types.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A path parameter holding a UUID, any case, or its 32-hex form; with `hex: false` (ids of anything but
 * users and media) only the lowercase canonical UUID. Anything else is 422 invalidId.
 */
export interface IdParam {
  kind: 'id';
  description: string;
  hex: boolean;
}
export const idParam = (description: string, options: { hex?: boolean } = {}): IdParam => ({
  kind: 'id',
  description,
  hex: options.hex ?? true,
});
type ParamSpec = IdParam | TSchema;
type ParamSpecs = Record<string, ParamSpec>;

export interface PageSpec {
  // biome-ignore lint/suspicious/noExplicitAny: any row type; the handler uses the keyset with its own rows
  keyset: Keyset<any>;
  defaultLimit?: number;
  maxLimit?: number;
}

/** Whether the route's success answer has a body (a 304 beside it never has). */
export const successHasBody = (success: Success, status: number = success.status): boolean =>
  status !== 304 && (success.schema !== undefined || success.mediaType !== undefined);

/** A path parameter's value: an id's canonical lowercase UUID, else what its schema says (an enum's union). */
type ParamValue<S extends ParamSpec> = S extends IdParam ? string : S extends TSchema ? Static<S> : never;

/** What a route with `page` adds to its handler's context. */
export interface PagedContext {
  /** The requested page. */
  page: PageRequest;
  /** JSON:API links of a page of this list. */
  links(page: Page<unknown>): Links;
}

export type RouteContext<
  A extends RouteAuth,
  P extends ParamSpecs,
  Q extends TProperties,
  B,
  G extends PageSpec | undefined = undefined,
> = {
  viewer: A extends 'user' ? Viewer : Viewer | null;
  /** Path parameters; id parameters hold the canonical lowercase UUID. */
  params: { [K in keyof P]: ParamValue<P[K]> };
  query: Static<TObject<Q>>;
  body: B extends TSchema ? Static<B> : undefined;
  locale: Locale;
  request: FastifyRequest;
  reply: FastifyReply;
} & (G extends PageSpec ? PagedContext : unknown);

export interface RouteSpec<
  A extends RouteAuth,
  P extends ParamSpecs,
  Q extends TProperties,
  B extends TSchema | undefined,
  G extends PageSpec | undefined = undefined,
> {
  method: HttpMethod;
  path: string;
  auth: A;
  summary: string;
  description?: string;
  /** Defaults to operationIdOf(method, path); set it where two paths would give the same one. */
  operationId?: string;
  /** Defaults to the area's tag given to registerRoutes. */
  tags?: string[];
  params?: P;
  query?: Q;
  page?: G;
  body?: B;
  /** A multipart/form-data body, parsed by the handler; documented with this schema. */
  multipart?: TSchema;
  /** Also read the body from an HTML form (application/x-www-form-urlencoded), validated by `body`. */
  formBody?: boolean;
  /** Codes this route answers beyond those every route of its kind can (implicitErrors). */
  errors?: ErrorCode[];
  success: Success;
  rateLimit?: RateLimitRule[];
  /**
   * A `user` GET that also takes the web sign-in cookie (`tm_session`) when no bearer token comes: the
   * web pages' EventSource, which cannot send a header (the notification stream). Never on a write.
   */
  webCookie?: boolean;
  preValidation?: preValidationHookHandler;
  handler(context: RouteContext<A, P, Q, B, G>): Promise<unknown>;
}

// biome-ignore lint/suspicious/noExplicitAny: a list of routes of every shape; each is checked by route()
export type AnyRoute = RouteSpec<RouteAuth, any, any, any, any>;

export function route<
  A extends RouteAuth,
  P extends ParamSpecs = Record<never, never>,
  Q extends TProperties = Record<never, never>,
  B extends TSchema | undefined = undefined,
  G extends PageSpec | undefined = undefined,
>(spec: RouteSpec<A, P, Q, B, G>): AnyRoute {
  return spec as unknown as AnyRoute;
}

/** Error codes a route answers by its kind alone, whatever its handler does. */
export function implicitErrors(spec: AnyRoute): ErrorCode[] {
  // Any request may carry a body of a type no route reads (415) or ask for a type we do not send (406).
  const codes: ErrorCode[] = [
    'badRequest',
    'notAcceptable',
    'unsupportedMediaType',
    'rateLimited',
    'internal',
    'databaseUnavailable',
  ];
  if (closedDuringMaintenance(spec.path)) codes.push('maintenance');
  if (spec.auth === 'user' || spec.auth === 'admin') codes.push('unauthenticated');
  if (spec.auth === 'user') codes.push('accountBanned');
  const params = Object.values(spec.params ?? {}) as ParamSpec[];
  if (params.some((param) => 'kind' in param && param.kind === 'id')) codes.push('invalidId');
  if (params.some((param) => !('kind' in param))) codes.push('validationFailed');
  if (spec.query || spec.page) codes.push('invalidQueryParameter');
  if (spec.page) codes.push('invalidCursor');
  if (spec.body || spec.multipart)
    codes.push('malformedJson', 'validationFailed', 'payloadTooLarge', 'unsupportedMediaType');
  return codes;
}

/** Every code a route declares, implicit ones included, without repeats. */
export const routeErrors = (spec: AnyRoute): ErrorCode[] => [
  ...new Set([...implicitErrors(spec), ...(spec.errors ?? [])]),
];

/** `/api/users/{userId}/likes` -> `/api/users/:userId/likes` */
const fastifyPath = (path: string) => path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** A stable operationId from method and path: GET /api/users/{userId}/likes -> getUsersByUserIdLikes. */
export function operationIdOf(method: HttpMethod, path: string): string {
  const words = path
    .replace(/^\/(api)\//, '/')
    .split(/[/\-.@]/)
    .filter(Boolean)
    .map((part) => {
      const [, param] = /^\{(.+)\}$/.exec(part) ?? [];
      return param === undefined ? part : `By${capitalized(param)}`;
    })
    .map(capitalized);
  return method.toLowerCase() + words.join('');
}

function paramsSchema(params: ParamSpecs): TObject {
  const properties: TProperties = {};
  for (const [name, spec] of Object.entries(params)) {
    properties[name] = 'kind' in spec ? Type.String({ description: spec.description }) : spec;
  }
  return Type.Object(properties);
}

function resolveParams(params: ParamSpecs, raw: Record<string, string>): Record<string, string> {
  const resolved: Record<string, string> = { ...raw };
  for (const [name, spec] of Object.entries(params)) {
    if (!('kind' in spec)) continue;
    const value = raw[name] ?? '';
    // A user's or a media's id in either form, any case; any other id exactly as the service writes it.
    const id = spec.hex ? parseUuidOrHex(value) : isLowercaseUuid(value) ? value : null;
    if (id === null) throw new AppError('invalidId', { source: { parameter: name } });
    resolved[name] = id;
  }
  return resolved;
}

/** The statuses a route declares: its success, the others it lists, and those of its errors. */
export function declaredStatuses(spec: AnyRoute): Set<number> {
  return new Set([
    spec.success.status,
    ...Object.keys(spec.success.also ?? {}).map(Number),
    ...routeErrors(spec).map((code) => errorCatalogue[code]),
  ]);
}

function sendAnswer(spec: AnyRoute, reply: FastifyReply, answer: Answer): FastifyReply {
  if (!declaredStatuses(spec).has(answer.status))
    throw new Error(`${spec.method} ${spec.path} answered ${answer.status}, which its route does not declare`);
  reply.status(answer.status).headers(answer.headers);
  return answer.body === undefined ? reply.send() : reply.send(answer.body);
}

/** Registers routes on the app; `tag` is the default OpenAPI tag of the area's routes. */
export function registerRoutes(app: App, tag: string, routes: readonly AnyRoute[]): void {
  for (const spec of routes) {
    const query =
      spec.query || spec.page
        ? Type.Object(
            {
              ...(spec.page ? pageQuerySchema(spec.page.defaultLimit, spec.page.maxLimit) : {}),
              ...(spec.query ?? {}),
            },
            { additionalProperties: false },
          )
        : undefined;
    const errors = routeErrors(spec);
    for (const code of errors) if (!(code in errorCatalogue)) throw new Error(`${spec.path}: unknown error ${code}`);
    app.route({
      method: spec.method,
      url: fastifyPath(spec.path),
      config: {
        auth: spec.auth,
        errors,
        success: spec.success,
        multipart: spec.multipart,
        ...(spec.formBody ? { formBody: true } : {}),
        ...(spec.rateLimit ? { rateLimit: spec.rateLimit } : {}),
        ...(spec.webCookie && spec.method === 'GET' ? { webCookie: true } : {}),
      },
      ...(spec.preValidation ? { preValidation: spec.preValidation } : {}),
      schema: {
        operationId: spec.operationId ?? operationIdOf(spec.method, spec.path),
        tags: spec.tags ?? [tag],
        summary: spec.summary,
        ...(spec.description ? { description: spec.description } : {}),
        ...(spec.params ? { params: paramsSchema(spec.params) } : {}),
        ...(query ? { querystring: query } : {}),
        ...(spec.body ? { body: spec.body } : {}),
        ...(spec.success.schema ? { response: { [spec.success.status]: spec.success.schema } } : {}),
      },
      handler: async (request, reply) => {
        const params = spec.params ? resolveParams(spec.params, request.params as Record<string, string>) : {};
        const queryValues = (request.query ?? {}) as Record<string, unknown>;
        const paged: PagedContext | undefined = spec.page && {
          page: pageRequest(queryValues, spec.page.keyset, spec.page.defaultLimit),
          links: (result) => pageLinks(request, result),
        };
        const run = () =>
          spec.handler({
            viewer: request.viewer as Viewer,
            params,
            query: queryValues,
            body: request.body,
            locale: request.locale,
            request,
            reply,
            ...paged,
          });
        const result = await (app.routedReads ? app.routedReads(request, run) : run());
        // A handler that writes its answer itself returns `reply`; but a reply is a thenable (it settles
        // once the answer has gone, or the client has), so awaiting the handler gives undefined, never
        // the reply. Whether it began to answer is what tells (Fastify's own test, wrap-thenable.js):
        // sending again logged "Reply was already sent" at every page and every stream a client left.
        if (reply.sent || reply.raw.headersSent || reply.raw.destroyed) return reply;
        if (result instanceof Answer) return sendAnswer(spec, reply, result);
        if (!successHasBody(spec.success)) return reply.status(spec.success.status).send();
        return reply.status(spec.success.status).send(result);
      },
    });
  }
}
