/**
 * The newsletter: POST /api/newsletter/subscribe (JSON), and the web routes POST /newsletter/subscribe
 * (an HTML form, or JSON), GET /newsletter/confirm, GET and POST (RFC 8058 one-click)
 * /newsletter/unsubscribe, which answer small HTML pages (errors: the platform's error page).
 */
import { Type } from 'typebox';
import { StringEnum } from '../../platform/http/jsonapi.ts';
import { perBodyField, perIp, type RateLimitRule } from '../../platform/http/rate-limit.ts';
import { registerRoutes, route } from '../../platform/http/route.ts';
import type { App } from '../../platform/http/types.ts';
import { supportedLocales } from '../../platform/i18n/i18n.ts';
import type { NewsletterServices } from './newsletter.module.ts';
import { renderPage, wantsJson } from './pages.ts';

const SubscribeBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    locale: Type.Optional(
      StringEnum(supportedLocales, {
        description: 'The language of the mails; default the one negotiated from Accept-Language',
      }),
    ),
  },
  { additionalProperties: false },
);
const TokenQuery = {
  token: Type.String({ minLength: 1, maxLength: 200, description: 'The token from the mailed link' }),
};
const html = 'text/html; charset=utf-8';

/**
 * Per IP; per (address, IP); per address across IPs (as accounts' forgot-password). The mails
 * themselves are capped per address (confirmationsPerHour), so nobody floods an inbox.
 */
const subscribeLimits = (name: string): RateLimitRule[] => {
  const address = perBodyField(name, 'email', 30, 3600);
  return [
    perIp(name, 20, 3600),
    {
      name: `${name}:address-ip`,
      max: 5,
      windowSeconds: 3600,
      key: (request) => {
        const key = address.key(request);
        return key === null ? null : `${request.ip}|${key}`;
      },
    },
    address,
  ];
};
const tokenLimits = [perIp('newsletter-token', 60, 60)];

export function newsletterRoutes(app: App, { newsletter }: NewsletterServices) {
  registerRoutes(app, 'newsletter', [
    route({
      method: 'POST',
      path: '/api/newsletter/subscribe',
      auth: 'none',
      summary:
        'Subscribe an address to the newsletter (double opt-in: a confirmation link is mailed); 202 whatever the address',
      rateLimit: subscribeLimits('newsletter-subscribe'),
      body: SubscribeBody,
      success: { status: 202 },
      handler: async ({ body, locale }) => newsletter.subscribe(body.email, body.locale ?? locale),
    }),
    route({
      method: 'POST',
      path: '/newsletter/subscribe',
      // The API route of the same name is postNewsletterSubscribe.
      operationId: 'postNewsletterSubscribeForm',
      auth: 'none',
      summary:
        'The web form: the same as POST /api/newsletter/subscribe from an HTML form (or JSON); the same page whatever the address',
      rateLimit: subscribeLimits('newsletter-subscribe-web'),
      body: SubscribeBody,
      formBody: true,
      success: {
        status: 202,
        mediaType: 'text/html',
        description: 'A page saying a confirmation link is on its way (no body when the client asks for JSON)',
      },
      handler: async ({ body, locale, request, reply }) => {
        newsletter.subscribe(body.email, body.locale ?? locale);
        if (wantsJson(request)) return reply.status(202).send();
        return reply.status(202).type(html).send(renderPage(locale, 'subscribed'));
      },
    }),
    route({
      method: 'GET',
      path: '/newsletter/confirm',
      auth: 'none',
      summary: 'Confirm a subscription with the mailed link (single use, 48 hours); an HTML page',
      rateLimit: tokenLimits,
      query: TokenQuery,
      errors: ['invalidToken', 'tokenUsed', 'tokenExpired'],
      success: { status: 200, mediaType: 'text/html', description: 'A page saying the subscription is confirmed' },
      handler: async ({ query, locale, reply }) => {
        const subscriber = await newsletter.confirm(query.token);
        return reply.type(html).send(renderPage(locale, 'confirmed', { email: subscriber.email }));
      },
    }),
    route({
      method: 'GET',
      path: '/newsletter/unsubscribe',
      auth: 'none',
      summary: 'Unsubscribe with the link of any newsletter mail (valid a year, idempotent); an HTML page',
      rateLimit: tokenLimits,
      query: TokenQuery,
      errors: ['invalidToken', 'tokenExpired'],
      success: { status: 200, mediaType: 'text/html', description: 'A page saying the address is unsubscribed' },
      handler: async ({ query, locale, reply }) => {
        const subscriber = await newsletter.unsubscribe(query.token);
        return reply.type(html).send(renderPage(locale, 'unsubscribed', { email: subscriber.email }));
      },
    }),
    route({
      method: 'POST',
      path: '/newsletter/unsubscribe',
      auth: 'none',
      summary:
        'RFC 8058 one-click unsubscribe: the List-Unsubscribe URL posted with the form body List-Unsubscribe=One-Click',
      rateLimit: tokenLimits,
      query: TokenQuery,
      body: Type.Object({ 'List-Unsubscribe': Type.Literal('One-Click') }, { additionalProperties: false }),
      formBody: true,
      errors: ['invalidToken', 'tokenExpired'],
      success: { status: 200, mediaType: 'text/html', description: 'A page saying the address is unsubscribed' },
      handler: async ({ query, locale, reply }) => {
        const subscriber = await newsletter.unsubscribe(query.token);
        return reply.type(html).send(renderPage(locale, 'unsubscribed', { email: subscriber.email }));
      },
    }),
  ]);
}
