/**
 * "Notify me on this device" on the security page (docs/api.md, Web pages): the service worker that
 * shows the pushes, served from the site's root so that its scope is the whole site, and the page's
 * writes of this browser's push subscription (the body and rules of POST
 * /api/users/me/push-subscriptions, authenticated by the `tm_session` cookie, from a page of this site).
 */
import { Type } from 'typebox';
import { AppError } from '../../../platform/http/error-catalogue.ts';
import { DocumentSchema } from '../../../platform/http/jsonapi.ts';
import { perIp } from '../../../platform/http/rate-limit.ts';
import { type AnyRoute, route } from '../../../platform/http/route.ts';
import { PushSubscriptionBody, PushSubscriptionSchema, presentPushSubscription } from '../../notifications/public.ts';
import { loadClientAssets } from '../assets/client-assets.ts';
import type { WebServices } from '../public.ts';
import { cookieViewer } from './cookie-viewer.ts';

export const pushWorkerPath = '/push-worker.js';

export function devicePushRoutes({ security }: Pick<WebServices, 'security'>): AnyRoute[] {
  const { sessions, pushSubscriptions } = security;
  return [
    route({
      method: 'GET',
      path: pushWorkerPath,
      auth: 'none',
      summary: "The pages' service worker: shows this site's Web Push notifications and opens their link",
      description: 'Revalidated at each registration (no-cache), so a new version reaches browsers at once.',
      errors: ['notFound'],
      success: { status: 200, mediaType: 'text/javascript; charset=utf-8', description: 'The worker script' },
      handler: async ({ reply }) => {
        const assets = await loadClientAssets();
        const file = assets.urls.get('push-worker.js')?.split('/').at(-1);
        const asset = file === undefined ? undefined : assets.files.get(file);
        if (asset === undefined) throw new AppError('notFound');
        reply.header('Cache-Control', 'no-cache').type(asset.contentType);
        return reply.send(asset.body);
      },
    }),
    route({
      method: 'POST',
      path: '/security/push-subscriptions',
      auth: 'none',
      summary:
        'The security page: register this browser for push notifications (the body and answer of POST /api/users/me/push-subscriptions)',
      description: 'Authenticated by the `tm_session` cookie, from a page of this site only.',
      rateLimit: [perIp('web-push-subscribe', 60, 900)],
      body: PushSubscriptionBody,
      preValidation: async (request) => {
        await cookieViewer(request, sessions);
      },
      errors: ['unauthenticated', 'accountBanned', 'crossOriginRequest', 'providerNotConfigured'],
      success: { status: 201, schema: DocumentSchema(PushSubscriptionSchema) },
      handler: async ({ body, request, locale }) => {
        const viewer = await cookieViewer(request, sessions);
        const input = { endpoint: body.endpoint, keys: body.keys, locale: body.locale ?? locale };
        return { data: presentPushSubscription(await pushSubscriptions.register(viewer.userId, input)) };
      },
    }),
    route({
      method: 'POST',
      path: '/security/push-subscriptions/remove',
      auth: 'none',
      summary: 'The security page: this browser unsubscribed, forget its endpoint (idempotent)',
      description: 'Authenticated by the `tm_session` cookie, from a page of this site only.',
      rateLimit: [perIp('web-push-unsubscribe', 60, 900)],
      body: Type.Object({ endpoint: Type.String({ minLength: 1, maxLength: 2048 }) }, { additionalProperties: false }),
      preValidation: async (request) => {
        await cookieViewer(request, sessions);
      },
      errors: ['unauthenticated', 'accountBanned', 'crossOriginRequest'],
      success: { status: 204 },
      handler: async ({ body, request }) => {
        const viewer = await cookieViewer(request, sessions);
        await pushSubscriptions.deleteEndpoint(viewer.userId, body.endpoint);
      },
    }),
  ];
}
