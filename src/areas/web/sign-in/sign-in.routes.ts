/**
 * The web sign-in (docs/api.md, Web sign-in): GET /login (the page; it shows the confirmation button
 * of a `?confirm=` link, whose form POST /login/confirm-email confirms the address, and the
 * new-password form of a `?reset=` link), POST /login
 * (JSON, as POST /api/auth/login takes it; sets the `tm_session` cookie), POST /logout (ends the
 * cookie's session) and POST /auth/oauth/{provider} (a provider's token, as POST /api/auth/oauth/{provider}
 * takes it; sets the cookie). Every session is a row of the one sessions table, opened by the
 * accounts and identities services. The writes must come from this site (web-session.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { readCookie } from '../../../platform/http/cookies.ts';
import { AppError, type ErrorCode } from '../../../platform/http/error-catalogue.ts';
import { DocumentSchema } from '../../../platform/http/jsonapi.ts';
import { perIp } from '../../../platform/http/rate-limit.ts';
import { type AnyRoute, route } from '../../../platform/http/route.ts';
import type { Viewer } from '../../../platform/http/types.ts';
import { translate } from '../../../platform/i18n/i18n.ts';
import type { AccountsServices } from '../../accounts/accounts.module.ts';
import { LoginBody, loginNameOf } from '../../accounts/auth.routes.ts';
import { presentSession, SessionSchema } from '../../accounts/presenters.ts';
import { clientInfo } from '../../accounts/sessions.service.ts';
import type { IdentitiesServices } from '../../identities/identities.module.ts';
import { ProviderCredentialsBody } from '../../identities/identities.schemas.ts';
import { assetUrl, loadClientAssets } from '../assets/client-assets.ts';
import { safeNextPath } from '../layout/layout.routes.ts';
import { pageContext } from '../layout/page-context.ts';
import { renderPage } from '../layout/render-page.ts';
import { htmlMediaType, sendPage } from '../layout/send-page.ts';
import { type ConfirmOutcome, type LoginPageState, loginPageBody } from './login-page.ts';
import { clearSessionCookie, requireSameSiteRequest, setSessionCookie, webSessionCookie } from './web-session.ts';

export interface SignInDependencies {
  accounts: AccountsServices;
  identities: IdentitiesServices;
  sessionTtlDays: number;
}

const Token = Type.String({ minLength: 1, maxLength: 200, description: 'The token of the e-mailed link' });
const confirmOutcomes = new Set<string>(['invalidToken', 'tokenUsed', 'tokenExpired']);

/** A signed-in answer: the session (never its token, which only the HttpOnly cookie holds). */
const WebSessionDocument = DocumentSchema(SessionSchema);
const presentWebSession = (session: Parameters<typeof presentSession>[0]) => ({
  data: presentSession(session, session.id),
});

/**
 * What a confirmation link's page shows: `pending` (a button that posts it) before the click, the
 * outcome after (`confirm` true: the POST). A GET or HEAD never spends it (mail scanners follow links).
 */
async function confirmOutcome(accounts: AccountsServices, token: string, confirm: boolean): Promise<ConfirmOutcome> {
  try {
    if (!confirm) {
      await accounts.mailFlows.checkConfirmation(token);
      return 'pending';
    }
    await accounts.mailFlows.confirmEmail(token);
    return 'done';
  } catch (error) {
    if (error instanceof AppError && confirmOutcomes.has(error.code)) return error.code as ConfirmOutcome;
    throw error;
  }
}

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
];

/** The sign-in page in the state of its request (a mailed link's form or outcome); never kept by a cache. */
async function sendLoginPage(
  request: FastifyRequest,
  reply: FastifyReply,
  viewer: Viewer | null,
  state: LoginPageState,
): Promise<FastifyReply> {
  await loadClientAssets();
  const context = await pageContext(request, viewer);
  const t = (key: string) => translate(context.locale, key);
  // The tokens of mailed links must not stay in caches or in the history's Referer.
  reply.header('Cache-Control', 'no-store');
  const page = renderPage(context, {
    title: t('signIn.title'),
    description: t('signIn.description'),
    canonicalPath: '/login',
    body: loginPageBody(context, state),
    styles: [assetUrl('login.css')],
    scripts: [assetUrl('login.js')],
    noIndex: state.confirm !== null || state.resetToken !== null || state.deleteToken !== null,
  });
  return sendPage(reply, page);
}

export function signInRoutes({ accounts, identities, sessionTtlDays }: SignInDependencies): AnyRoute[] {
  /** Ends the session of the request's cookie, if it still lives (a banned account's too: only pages ignore it). */
  async function endCookieSession(request: FastifyRequest): Promise<void> {
    const token = readCookie(request, webSessionCookie);
    const session = token === null ? null : await accounts.sessions.resolve(token, request);
    if (session !== null)
      await accounts.sessions.revoke(session.viewer.userId, session.viewer.sessionId).catch(ignoreGone);
  }

  return [
    route({
      method: 'GET',
      path: '/login',
      auth: 'optional',
      summary: 'The sign-in page; asks for a click on a ?confirm= link and a new password for a ?reset= link',
      description:
        'HTML. `next`: the page to go to once signed in (a path of this site; anything else goes home). `confirm`: the token ' +
        'of a confirmation mail; the page shows a button posting it to POST /login/confirm-email (a GET or HEAD spends ' +
        'nothing), or why it cannot (already confirmed, expired, not valid). `reset`: the token of a reset mail; the ' +
        "page's script posts it to POST /api/auth/reset-password with the new password. `delete`: the token of an account-deletion " +
        'mail; the page asks for a click and its script posts it to POST /api/account/deletion/confirm. A signed-in viewer (web cookie) is offered to continue.',
      query: {
        next: Type.Optional(
          Type.String({ maxLength: 2000, description: 'A path of this site to go to once signed in' }),
        ),
        confirm: Type.Optional(Token),
        reset: Type.Optional(Token),
        delete: Type.Optional(Token),
      },
      success: { status: 200, mediaType: htmlMediaType, description: 'The sign-in page' },
      handler: async ({ query, request, reply, viewer }) => {
        const confirm = query.confirm === undefined ? null : await confirmOutcome(accounts, query.confirm, false);
        return sendLoginPage(request, reply, viewer, {
          next: safeNextPath(query.next),
          confirm: confirm === null ? null : { outcome: confirm, token: query.confirm! },
          resetToken: query.reset ?? null,
          deleteToken: query.delete ?? null,
        });
      },
    }),
    route({
      method: 'POST',
      path: '/login/confirm-email',
      auth: 'none',
      summary: 'The button of a confirmation link: confirms the address (an HTML form), answers the sign-in page',
      description:
        'The form of GET /login?confirm= (`application/x-www-form-urlencoded`, `token`): the body and rules of POST ' +
        '/api/auth/confirm-email (every session of the account ends). The page says whether it worked (200 either way).',
      rateLimit: [perIp('web-confirm-email', 30, 900)],
      body: Type.Object({ token: Token }, { additionalProperties: false }),
      formBody: true,
      success: { status: 200, mediaType: htmlMediaType, description: 'The sign-in page with the outcome' },
      handler: async ({ body, request, reply }) => {
        const outcome = await confirmOutcome(accounts, body.token, true);
        return sendLoginPage(request, reply, null, {
          next: '/',
          confirm: { outcome, token: body.token },
          resetToken: null,
          deleteToken: null,
        });
      },
    }),
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
      errors: ['invalidCredentials', 'crossOriginRequest'],
      success: { status: 200, schema: WebSessionDocument },
      handler: async ({ body, request, reply }) => {
        reply.header('Cache-Control', 'no-store');
        const { session, accessToken } = await accounts.accounts.login(
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
        return reply.status(302).header('Cache-Control', 'no-store').header('Location', '/').send();
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
        const signedIn = await identities.identities.signIn(params.provider, body, clientInfo(request), locale);
        await endCookieSession(request);
        setSessionCookie(request, reply, signedIn.accessToken, sessionTtlDays);
        return reply.status(signedIn.created ? 201 : 200).send(presentWebSession(signedIn.session));
      },
    }),
  ];
}

/** A session revoked meanwhile (another tab, another instance) is already what logout wants. */
function ignoreGone(error: unknown): void {
  if (!(error instanceof AppError && error.code === 'notFound')) throw error;
}
