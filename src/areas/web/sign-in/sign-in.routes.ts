/**
 * The web sign-in (docs/api.md, Web sign-in): GET /login (the page; it also shows the form of a mailed
 * `?confirm=`, `?reset=` or `?delete=` link, whose POST is in mailed-links.routes.ts), POST /login
 * (JSON, as POST /api/auth/login takes it; sets the `tm_session` cookie), POST /logout (ends the
 * cookie's session) and POST /auth/oauth/{provider} (a provider's token, as POST /api/auth/oauth/{provider}
 * takes it; sets the cookie), POST /login/two-factor (the code step of an account with two-factor on:
 * the body of POST /api/auth/two-factor; sets the cookie). Every session is a row of the one sessions table, opened by the
 * accounts and identities services. The writes must come from this site (web-session.ts).
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { alsoAnswer, redirectTo } from '../../../platform/http/answers.ts';
import { readCookie } from '../../../platform/http/cookies.ts';
import { AppError, type ErrorCode } from '../../../platform/http/error-catalogue.ts';
import { DocumentSchema } from '../../../platform/http/jsonapi.ts';
import { perIp } from '../../../platform/http/rate-limit.ts';
import { type AnyRoute, route } from '../../../platform/http/route.ts';
import {
  clientInfo,
  LoginBody,
  loginNameOf,
  presentSession,
  SessionSchema,
  TwoFactorCompletionBody,
  twoFactorProofOf,
} from '../../accounts/public.ts';
import { ProviderCredentialsBody } from '../../identities/public.ts';
import { safeNextPath } from '../layout/layout.routes.ts';
import { htmlMediaType } from '../layout/send-page.ts';
import type { WebServices } from '../public.ts';
import { MailedToken, mailedLinkRoutes, openedLink } from './mailed-links.routes.ts';
import { sendLoginPage } from './send-login-page.ts';
import { clearSessionCookie, requireSameSiteRequest, setSessionCookie, webSessionCookie } from './web-session.ts';

/** A signed-in answer: the session (never its token, which only the HttpOnly cookie holds). */
const WebSessionDocument = DocumentSchema(SessionSchema);
const presentWebSession = (session: Parameters<typeof presentSession>[0]) => ({
  data: presentSession(session, session.id),
});

const sameSiteOnly = async (request: FastifyRequest) => requireSameSiteRequest(request);

/** What a provider sign-in can answer (as POST /api/auth/oauth/{provider}). */
const providerErrors: ErrorCode[] = [
  'notFound',
  'providerNotConfigured',
  'invalidProviderToken',
  'providerUnavailable',
  'identityEmailInUse',
  'identityEmailMissing',
  'accountBanned',
  'twoFactorRequired',
];

export function signInRoutes(
  { signIn }: Pick<WebServices, 'signIn'>,
  { sessionTtlDays }: { sessionTtlDays: number },
): AnyRoute[] {
  /** Ends the session of the request's cookie, if it still lives (a banned account's too: only pages ignore it). */
  async function endCookieSession(request: FastifyRequest): Promise<void> {
    const token = readCookie(request, webSessionCookie);
    const session = token === null ? null : await signIn.sessions.resolve(token, request);
    if (session !== null)
      await signIn.sessions.revoke(session.viewer.userId, session.viewer.sessionId).catch(ignoreGone);
  }

  return [
    route({
      method: 'GET',
      path: '/login',
      auth: 'optional',
      summary:
        'The sign-in page; shows the form of a mailed ?confirm=, ?reset= or ?delete= link (the GET spends nothing)',
      description:
        'HTML. `next`: the page to go to once signed in (a path of this site; anything else goes home). `confirm`: the token ' +
        'of a confirmation mail: a button posting it to POST /login/confirm-email, or why it cannot work (already ' +
        'confirmed, expired, not valid). `reset`: the token of a reset mail: a new-password form posting to POST ' +
        '/login/reset-password. `delete`: the token of an account-deletion mail: a button posting to POST ' +
        '/login/delete-account. A GET or HEAD spends no token. A signed-in viewer (web cookie) is offered to continue.',
      query: {
        next: Type.Optional(
          Type.String({ maxLength: 2000, description: 'A path of this site to go to once signed in' }),
        ),
        confirm: Type.Optional(MailedToken),
        reset: Type.Optional(MailedToken),
        delete: Type.Optional(MailedToken),
      },
      success: { status: 200, mediaType: htmlMediaType, description: 'The sign-in page' },
      handler: async ({ query, request, reply, viewer }) =>
        sendLoginPage(request, reply, viewer, {
          next: safeNextPath(query.next),
          link: await openedLink(signIn, query),
        }),
    }),
    ...mailedLinkRoutes({ signIn }),
    route({
      method: 'POST',
      path: '/login',
      auth: 'none',
      summary: 'Web sign-in: the body of POST /api/auth/login; sets the HttpOnly `tm_session` cookie',
      description:
        'JSON only (`{login|email, password}`), from a page of this site (`Origin`; 403 `crossOriginRequest` otherwise). ' +
        'Answers the new session (as listed by GET /api/auth/sessions) without its token: the cookie holds it.',
      rateLimit: [perIp('web-login', 30, 900)],
      body: LoginBody,
      // Another site's request is refused before its body is validated or used (a non-JSON body is 415 first).
      preValidation: sameSiteOnly,
      errors: ['invalidCredentials', 'twoFactorRequired', 'crossOriginRequest'],
      success: { status: 200, schema: WebSessionDocument },
      handler: async ({ body, request, reply }) => {
        reply.header('Cache-Control', 'no-store');
        const { session, accessToken } = await signIn.accounts.login(
          loginNameOf(body),
          body.password,
          clientInfo(request),
        );
        // The browser's previous web session (another account, or an older sign-in) ends: one cookie, one session.
        await endCookieSession(request);
        setSessionCookie(request, reply, accessToken, sessionTtlDays);
        return presentWebSession(session);
      },
    }),
    route({
      method: 'POST',
      path: '/login/two-factor',
      auth: 'none',
      summary: 'Web sign-in, code step: the body of POST /api/auth/two-factor; sets the HttpOnly `tm_session` cookie',
      description:
        'JSON only (`{ticket, code|recoveryCode}`: the ticket of the 401 `twoFactorRequired` POST /login or POST ' +
        '/auth/oauth/{provider} answered), from a page of this site. Answers the new session without its token.',
      rateLimit: [perIp('web-two-factor', 30, 900)],
      body: TwoFactorCompletionBody,
      preValidation: sameSiteOnly,
      errors: ['twoFactorTicketInvalid', 'twoFactorCodeInvalid', 'crossOriginRequest'],
      success: { status: 200, schema: WebSessionDocument },
      handler: async ({ body, request, reply }) => {
        reply.header('Cache-Control', 'no-store');
        const { session, accessToken } = await signIn.sessions.completeTwoFactor(
          body.ticket,
          twoFactorProofOf(body),
          clientInfo(request),
        );
        await endCookieSession(request);
        setSessionCookie(request, reply, accessToken, sessionTtlDays);
        return presentWebSession(session);
      },
    }),
    route({
      method: 'POST',
      path: '/logout',
      auth: 'none',
      summary: "Web sign-out: ends the `tm_session` cookie's session, clears the cookie and goes home",
      description:
        'From a page of this site only (`Origin`, else `Sec-Fetch-Site` or `Referer`; 403 `crossOriginRequest` otherwise). ' +
        'Without a live session it still clears the cookie. The body is empty: the form of the pages posts no field.',
      // The pages' sign-out button is a plain HTML form (it works without script).
      formBody: true,
      body: Type.Object({}, { additionalProperties: false, description: 'nothing' }),
      // A request from another site is refused before anything else; no body at all reads as the empty form.
      preValidation: async (request) => {
        requireSameSiteRequest(request);
        request.body ??= {};
      },
      errors: ['crossOriginRequest'],
      success: { status: 302, description: 'Found: Location is the home page' },
      handler: async ({ request, reply }) => {
        await endCookieSession(request);
        clearSessionCookie(request, reply);
        reply.header('Cache-Control', 'no-store');
        return redirectTo('/');
      },
    }),
    route({
      method: 'POST',
      path: '/auth/oauth/{provider}',
      // The API's POST /api/auth/oauth/{provider} would give the same operationId.
      operationId: 'postWebAuthOauthByProvider',
      auth: 'none',
      summary:
        "Web sign-in with an identity provider's token (the body of POST /api/auth/oauth/{provider}); sets the cookie",
      description:
        '200 into the linked account, 201 with a new account; the same rules and errors as POST /api/auth/oauth/{provider}, ' +
        'from a page of this site only. Answers the new session without its token: the cookie holds it.',
      params: {
        provider: Type.String({
          maxLength: 32,
          description: '`google`, `apple` or `facebook`; any other value is 404',
        }),
      },
      rateLimit: [perIp('web-oauth-sign-in', 30, 900)],
      body: ProviderCredentialsBody,
      preValidation: sameSiteOnly,
      errors: [...providerErrors, 'crossOriginRequest'],
      success: {
        status: 200,
        schema: WebSessionDocument,
        also: { 201: 'A first sign-in: the account was created (same body)' },
      },
      handler: async ({ params, body, request, reply, locale }) => {
        reply.header('Cache-Control', 'no-store');
        const signedIn = await signIn.identities.signIn(params.provider, body, clientInfo(request), locale);
        await endCookieSession(request);
        setSessionCookie(request, reply, signedIn.accessToken, sessionTtlDays);
        const document = presentWebSession(signedIn.session);
        return signedIn.created ? alsoAnswer(201, document) : document;
      },
    }),
  ];
}

/** A session revoked meanwhile (another tab, another instance) is already what logout wants. */
function ignoreGone(error: unknown): void {
  if (!(error instanceof AppError && error.code === 'notFound')) throw error;
}
