/** Liveness and the supported locales. */
import { Type } from 'typebox';
import { CollectionSchema, DocumentSchema, ResourceSchema, resource, Timestamp } from '../../platform/http/jsonapi.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import { defaultLocale, localeNames, supportedLocales } from '../../platform/i18n/i18n.ts';
import type { Platform } from '../../platform/modules/area-module.ts';

const LocaleSchema = ResourceSchema(
  'locales',
  Type.Object({ name: Type.String(), nativeName: Type.String(), language: Type.String(), default: Type.Boolean() }),
);

export function systemRoutes({ clock, databaseHealth }: Pick<Platform, 'clock' | 'databaseHealth'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/api/ping',
      auth: 'none',
      summary: 'Liveness: answers when the service runs and reaches its database',
      success: {
        status: 200,
        schema: DocumentSchema(
          ResourceSchema('ping', Type.Object({ status: Type.Literal('ok'), time: Timestamp, database: Type.String() })),
        ),
      },
      handler: async () => {
        await databaseHealth.check();
        const attributes = {
          status: 'ok' as const,
          time: formatTimestamp(clock.now()),
          database: databaseHealth.engine,
        };
        return { data: resource('ping', 'ping', attributes) };
      },
    }),
    route({
      method: 'GET',
      path: '/api/i18n/locales',
      auth: 'none',
      summary: 'Locales the service speaks; negotiate with Accept-Language',
      success: {
        status: 200,
        schema: CollectionSchema(LocaleSchema, {
          negotiated: Type.String({ description: 'the locale picked from Accept-Language' }),
        }),
      },
      handler: async ({ locale, request }) => {
        const self = `${request.server.publicUrl}/api/i18n/locales`;
        return {
          data: supportedLocales.map((each) =>
            resource('locales', each, {
              ...localeNames[each],
              language: each.split('-')[0] ?? each,
              default: each === defaultLocale,
            }),
          ),
          meta: { limit: supportedLocales.length, negotiated: locale },
          links: { self, first: self, prev: null, next: null },
        };
      },
    }),
  ];
}
