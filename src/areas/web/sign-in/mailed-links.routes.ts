/**
 * The forms of the mailed links on the sign-in page (docs/api.md, Web sign-in): POST
 * /login/confirm-email, /login/reset-password and /login/delete-account take the HTML form of GET
 * /login?confirm=, ?reset= or ?delete= (no script needed), do what the API routes of the same link do
 * through the same services, and answer the sign-in page with the outcome. They read no cookie: the
 * token is the credential.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../../platform/http/error-catalogue.ts';
import { perIp } from '../../../platform/http/rate-limit.ts';
import { type AnyRoute, route } from '../../../platform/http/route.ts';
import { htmlMediaType } from '../layout/send-page.ts';
import type { SignInServices, WebServices } from '../public.ts';
import { type MailedLink, type MailedLinkOutcome, mailedLinkActions } from './mailed-links.ts';
import { sendLoginPage } from './send-login-page.ts';

export const MailedToken = Type.String({ minLength: 1, maxLength: 200, description: 'The token of the e-mailed link' });
/** What the page tells of a failed link; any other error is the error page. */
const shownErrors = new Set<string>(['invalidToken', 'tokenUsed', 'tokenExpired', 'weakPassword']);

/** The outcome of a link's action: `done`, or the error the page shows. */
async function outcomeOf(action: () => Promise<unknown>): Promise<MailedLinkOutcome> {
  try {
    await action();
    return 'done';
  } catch (error) {
    if (error instanceof AppError && shownErrors.has(error.code)) return error.code as MailedLinkOutcome;
    throw error;
  }
}

/**
 * The mailed link GET /login was opened with, if any: a confirmation link is checked (already
 * confirmed, expired...) but never spent by the GET; the others wait for their form.
 */
export async function openedLink(
  signIn: Pick<SignInServices, 'mailFlows'>,
  query: { confirm?: string; reset?: string; delete?: string },
): Promise<MailedLink | null> {
  const { confirm } = query;
  if (confirm !== undefined) {
    const checked = await outcomeOf(() => signIn.mailFlows.checkConfirmation(confirm));
    return { kind: 'confirm', token: confirm, outcome: checked === 'done' ? 'pending' : checked };
  }
  if (query.reset !== undefined) return { kind: 'reset', token: query.reset, outcome: 'pending' };
  if (query.delete !== undefined) return { kind: 'delete', token: query.delete, outcome: 'pending' };
  return null;
}

const TokenForm = Type.Object({ token: MailedToken }, { additionalProperties: false });
const ResetForm = Type.Object(
  { token: MailedToken, password: Type.String({ minLength: 1, maxLength: 128, description: 'The new password' }) },
  { additionalProperties: false },
);
const outcomePage = {
  status: 200 as const,
  mediaType: htmlMediaType,
  description: 'The sign-in page with the outcome',
};

/** The sign-in page after a link's form was posted: no viewer (the form reads no cookie). */
const showOutcome = (request: FastifyRequest, reply: FastifyReply, link: MailedLink) =>
  sendLoginPage(request, reply, null, { next: '/', link });

export function mailedLinkRoutes({ signIn }: Pick<WebServices, 'signIn'>): AnyRoute[] {
  return [
    route({
      method: 'POST',
      path: mailedLinkActions.confirm,
      auth: 'none',
      summary: 'The button of a confirmation link (an HTML form): confirms the address; answers the sign-in page',
      description:
        'The form of GET /login?confirm= (`token`): what POST /api/auth/confirm-email does (every session of the ' +
        'account ends). The page says whether it worked (200 either way: already confirmed, expired, not valid).',
      rateLimit: [perIp('web-confirm-email', 30, 900)],
      body: TokenForm,
      formBody: true,
      success: outcomePage,
      handler: async ({ body, request, reply }) => {
        const outcome = await outcomeOf(() => signIn.mailFlows.confirmEmail(body.token));
        return showOutcome(request, reply, { kind: 'confirm', token: body.token, outcome });
      },
    }),
    route({
      method: 'POST',
      path: mailedLinkActions.reset,
      auth: 'none',
      summary: 'The form of a reset link (an HTML form): sets the new password; answers the sign-in page',
      description:
        'The form of GET /login?reset= (`token`, `password`): what POST /api/auth/reset-password does. A weak password ' +
        'shows the form again; a used, expired or unknown link says so (200 either way).',
      rateLimit: [perIp('web-reset-password', 30, 900)],
      body: ResetForm,
      formBody: true,
      success: outcomePage,
      handler: async ({ body, request, reply }) => {
        const outcome = await outcomeOf(() => signIn.mailFlows.resetPassword(body.token, body.password));
        return showOutcome(request, reply, { kind: 'reset', token: body.token, outcome });
      },
    }),
    route({
      method: 'POST',
      path: mailedLinkActions.delete,
      auth: 'none',
      summary: 'The button of an account-deletion link (an HTML form): disables the account; answers the sign-in page',
      description:
        'The form of GET /login?delete= (`token`): what POST /api/account/deletion/confirm does. A used, expired or ' +
        'unknown link says so, all alike (200 either way).',
      rateLimit: [perIp('web-deletion-confirm', 30, 900)],
      body: TokenForm,
      formBody: true,
      success: outcomePage,
      handler: async ({ body, request, reply }) => {
        const outcome = await outcomeOf(() => signIn.deletion.confirm(body.token));
        return showOutcome(request, reply, { kind: 'delete', token: body.token, outcome });
      },
    }),
  ];
}
