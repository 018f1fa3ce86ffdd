/**
 * The security page (docs/api.md, Web pages): GET /security lists the viewer's passkeys; its script
 * registers one through POST /security/passkeys/options and POST /security/passkeys (the bodies and
 * rules of the API's /api/users/me/passkeys routes, authenticated by the `tm_session` cookie instead
 * of a Bearer token), and each passkey's plain form posts POST /security/passkeys/{id}/delete. Every
 * write must come from a page of this site (the web sign-in's CSRF rule).
 */
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { Type } from 'typebox';
import { redirectTo } from '../../../platform/http/answers.ts';
import { DocumentSchema } from '../../../platform/http/jsonapi.ts';
import { perIp } from '../../../platform/http/rate-limit.ts';
import { type AnyRoute, idParam, route } from '../../../platform/http/route.ts';
import { translate } from '../../../platform/i18n/i18n.ts';
import { clientInfo } from '../../accounts/public.ts';
import {
  maxPasskeys,
  PasskeyRegistrationBody,
  PasskeySchema,
  presentOptions,
  presentPasskey,
  RegistrationOptionsBody,
  RegistrationOptionsSchema,
} from '../../passkeys/public.ts';
import { assetUrl, loadClientAssets } from '../assets/client-assets.ts';
import { pageContext } from '../layout/page-context.ts';
import { renderPage } from '../layout/render-page.ts';
import { htmlMediaType, sendPage } from '../layout/send-page.ts';
import type { WebServices } from '../public.ts';
import { cookieViewer } from './cookie-viewer.ts';
import { securityPageBody } from './security-page.ts';

export function securityRoutes({ security }: Pick<WebServices, 'security'>): AnyRoute[] {
  const { sessions, passkeys, pushSubscriptions } = security;
  return [
    route({
      method: 'GET',
      path: '/security',
      auth: 'optional',
      summary:
        "The signed-in viewer's security page: their passkeys, to add or delete, and this device's push notifications (HTML)",
      description: 'Without a viewer, a link to sign in. Never cached.',
      success: { status: 200, mediaType: htmlMediaType, description: 'The page' },
      handler: async ({ request, reply, viewer }) => {
        await loadClientAssets();
        const [context, listed] = await Promise.all([
          pageContext(request, viewer),
          viewer === null
            ? null
            : passkeys.list(viewer.userId, {
                direction: 'first',
                position: null,
                limit: maxPasskeys,
                list: 'passkeys',
              }),
        ]);
        const t = (key: string) => translate(context.locale, key);
        const vapidKey = viewer === null ? null : pushSubscriptions.vapidPublicKeyIfEnabled();
        reply.header('Cache-Control', 'no-store');
        return sendPage(
          reply,
          renderPage(context, {
            title: t('security.title'),
            description: t('security.description'),
            canonicalPath: '/security',
            body: securityPageBody(
              context,
              listed === null ? null : listed.slice(0, maxPasskeys),
              maxPasskeys,
              vapidKey,
            ),
            styles: [assetUrl('login.css')],
            scripts: [
              ...(viewer === null ? [] : [assetUrl('security.js')]),
              ...(vapidKey === null ? [] : [assetUrl('device-push.js')]),
            ],
            noIndex: true,
          }),
        );
      },
    }),
    route({
      method: 'POST',
      path: '/security/passkeys/options',
      auth: 'none',
      summary:
        'The security page: start registering a passkey (the body and answer of POST /api/users/me/passkeys/options)',
      description:
        'Authenticated by the `tm_session` cookie (401 `unauthenticated` without a live one), from a page of this site ' +
        'only (403 `crossOriginRequest`).',
      rateLimit: [perIp('web-passkey-register-options', 30, 900)],
      body: RegistrationOptionsBody,
      preValidation: async (request) => {
        await cookieViewer(request, sessions);
      },
      errors: [
        'unauthenticated',
        'accountBanned',
        'crossOriginRequest',
        'reauthenticationRequired',
        'wrongPassword',
        'passkeyLimitReached',
        'notFound',
      ],
      success: { status: 200, schema: DocumentSchema(RegistrationOptionsSchema) },
      handler: async ({ body, request, reply }) => {
        reply.header('Cache-Control', 'no-store');
        const viewer = await cookieViewer(request, sessions);
        return { data: presentOptions(await passkeys.registrationOptions(viewer, body, clientInfo(request))) };
      },
    }),
    route({
      method: 'POST',
      path: '/security/passkeys',
      auth: 'none',
      summary: 'The security page: register a passkey (the body and answer of POST /api/users/me/passkeys)',
      description: 'Authenticated by the `tm_session` cookie, from a page of this site only.',
      rateLimit: [perIp('web-passkey-register', 30, 900)],
      body: PasskeyRegistrationBody,
      preValidation: async (request) => {
        await cookieViewer(request, sessions);
      },
      errors: [
        'unauthenticated',
        'accountBanned',
        'crossOriginRequest',
        'passkeyRegistrationRejected',
        'passkeyAlreadyRegistered',
        'passkeyLimitReached',
        'notFound',
      ],
      success: { status: 201, schema: DocumentSchema(PasskeySchema) },
      handler: async ({ body, request, locale }) => {
        const viewer = await cookieViewer(request, sessions);
        const credential = body.credential as RegistrationResponseJSON;
        return {
          data: presentPasskey(await passkeys.register(viewer.userId, { name: body.name?.trim(), credential }, locale)),
        };
      },
    }),
    route({
      method: 'POST',
      path: '/security/passkeys/{id}/delete',
      auth: 'none',
      summary: "The security page's delete button: deletes one of my passkeys and goes back to the page",
      description:
        'A plain HTML form (no field), authenticated by the `tm_session` cookie, from a page of this site only. ' +
        'The same rules and mail as DELETE /api/users/me/passkeys/{id}.',
      params: { id: idParam('The passkey UUID', { hex: false }) },
      rateLimit: [perIp('web-passkey-delete', 60, 900)],
      formBody: true,
      body: Type.Object({}, { additionalProperties: false, description: 'nothing' }),
      preValidation: async (request) => {
        await cookieViewer(request, sessions);
        request.body ??= {};
      },
      errors: ['unauthenticated', 'accountBanned', 'crossOriginRequest', 'notFound'],
      success: { status: 302, description: 'Found: Location is /security' },
      handler: async ({ params, request, reply, locale }) => {
        const viewer = await cookieViewer(request, sessions);
        await passkeys.delete(viewer.userId, params.id, locale);
        reply.header('Cache-Control', 'no-store');
        return redirectTo('/security');
      },
    }),
  ];
}
