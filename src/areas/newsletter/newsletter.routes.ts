/**
 * The newsletter: POST /api/newsletter/subscribe (JSON), and the web form POST /newsletter/subscribe
 * (an HTML form, or JSON), which answers a small HTML page (errors: the platform's error page). The
 * pages of the mailed links (/newsletter/confirm, /newsletter/unsubscribe) are the web area's
 * (src/areas/web/newsletter).
 */
import { Type } from 'typebox';
import { StringEnum } from '../../platform/http/jsonapi.ts';
import { perBodyField, perIp, type RateLimitRule } from '../../platform/http/rate-limit.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { supportedLocales } from '../../platform/i18n/i18n.ts';
import { renderPage, wantsJson } from './pages.ts';
import type { NewsletterServices } from './public.ts';

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

export function newsletterRoutes({ newsletter }: Pick<NewsletterServices, 'newsletter'>): AnyRoute[] {
  return [
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
        emptyForJson: true,
      },
      handler: async ({ body, locale, request, reply }) => {
        newsletter.subscribe(body.email, body.locale ?? locale);
        if (wantsJson(request)) return undefined;
        reply.type(html);
        return renderPage(locale, 'subscribed');
      },
    }),
  ];
}
