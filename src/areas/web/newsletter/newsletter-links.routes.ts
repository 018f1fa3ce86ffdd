/**
 * The newsletter's mailed links (docs/api.md, Newsletter): GET /newsletter/confirm and GET
 * /newsletter/unsubscribe show a page with a button; the button's form POSTs the same URL, which
 * confirms or unsubscribes. POST /newsletter/unsubscribe is also RFC 8058's one-click unsubscribe,
 * which mail clients post themselves. Errors are the layout's error page (JSON when asked).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { perIp } from '../../../platform/http/rate-limit.ts';
import { type AnyRoute, route } from '../../../platform/http/route.ts';
import { pageContext } from '../layout/page-context.ts';
import { htmlMediaType, sendPage } from '../layout/send-page.ts';
import type { WebServices } from '../public.ts';
import { type NewsletterPage, renderNewsletterPage } from './newsletter-pages.ts';

const TokenQuery = {
  token: Type.String({ minLength: 1, maxLength: 200, description: 'The token from the mailed link' }),
};
const tokenLimits = [perIp('newsletter-token', 60, 60)];
const page = (description: string) => ({ status: 200 as const, mediaType: htmlMediaType, description });

/** A page of a mailed link: its token must stay out of caches. */
async function sendNewsletterPage(request: FastifyRequest, reply: FastifyReply, shown: NewsletterPage) {
  const context = await pageContext(request, null);
  reply.header('Cache-Control', 'no-store');
  return sendPage(reply, renderNewsletterPage(context, shown));
}

export function newsletterLinkRoutes({ newsletter }: Pick<WebServices, 'newsletter'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/newsletter/confirm',
      auth: 'none',
      summary:
        'The link of the confirmation mail: a page whose button confirms the subscription (the GET changes nothing)',
      rateLimit: tokenLimits,
      query: TokenQuery,
      errors: ['invalidToken', 'tokenUsed', 'tokenExpired'],
      success: page('The button, or "already confirmed" once the address is'),
      handler: async ({ query, request, reply }) => {
        const { subscriber, alreadyConfirmed } = await newsletter.confirmation(query.token);
        const kind = alreadyConfirmed ? 'alreadyConfirmed' : 'confirm';
        return sendNewsletterPage(request, reply, { kind, email: subscriber.email, token: query.token });
      },
    }),
    route({
      method: 'POST',
      path: '/newsletter/confirm',
      auth: 'none',
      summary: 'The button of the confirmation page: confirms the subscription (every link mailed works until then)',
      description: 'An HTML form with no field; the token is in the URL, as in the mailed link.',
      rateLimit: tokenLimits,
      query: TokenQuery,
      formBody: true,
      body: Type.Object({}, { additionalProperties: false, description: 'nothing' }),
      // The button's form has no field: no body at all reads as the empty form.
      preValidation: async (request) => {
        request.body ??= {};
      },
      errors: ['invalidToken', 'tokenUsed', 'tokenExpired'],
      success: page('"Subscription confirmed", or "already confirmed"'),
      handler: async ({ query, request, reply }) => {
        const { subscriber, alreadyConfirmed } = await newsletter.confirm(query.token);
        const kind = alreadyConfirmed ? 'alreadyConfirmed' : 'confirmed';
        return sendNewsletterPage(request, reply, { kind, email: subscriber.email, token: query.token });
      },
    }),
    route({
      method: 'GET',
      path: '/newsletter/unsubscribe',
      auth: 'none',
      summary:
        'The unsubscribe link of any newsletter mail: a page whose button unsubscribes (the GET changes nothing)',
      rateLimit: tokenLimits,
      query: TokenQuery,
      errors: ['invalidToken', 'tokenExpired'],
      success: page('The button, or "you are unsubscribed" once the address is'),
      handler: async ({ query, request, reply }) => {
        const subscriber = await newsletter.unsubscription(query.token);
        const kind = subscriber.status === 'unsubscribed' ? 'unsubscribed' : 'unsubscribe';
        return sendNewsletterPage(request, reply, { kind, email: subscriber.email, token: query.token });
      },
    }),
    route({
      method: 'POST',
      path: '/newsletter/unsubscribe',
      auth: 'none',
      summary:
        "RFC 8058 one-click unsubscribe (and the unsubscribe page's button): the link's URL posted with List-Unsubscribe=One-Click",
      rateLimit: tokenLimits,
      query: TokenQuery,
      body: Type.Object({ 'List-Unsubscribe': Type.Literal('One-Click') }, { additionalProperties: false }),
      formBody: true,
      errors: ['invalidToken', 'tokenExpired'],
      success: page('A page saying the address is unsubscribed'),
      handler: async ({ query, request, reply }) => {
        const subscriber = await newsletter.unsubscribe(query.token);
        return sendNewsletterPage(request, reply, {
          kind: 'unsubscribed',
          email: subscriber.email,
          token: query.token,
        });
      },
    }),
  ];
}
