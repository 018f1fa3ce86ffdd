/** Liveness and the supported locales. */
import { Type } from 'typebox';
import { CollectionSchema, DocumentSchema, ResourceSchema, resource, Timestamp } from '../../platform/http/jsonapi.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import type { App } from '../../platform/http/types.ts';
import { defaultLocale, localeNames, supportedLocales } from '../../platform/i18n/i18n.ts';
import type { Platform } from '../../platform/modules/area-module.ts';

const tags = ['system'];

const LocaleSchema = ResourceSchema(
  'locales',
  Type.Object({ name: Type.String(), nativeName: Type.String(), language: Type.String(), default: Type.Boolean() }),
);

export function systemRoutes(app: App, { clock, database }: Pick<Platform, 'clock' | 'database'>) {
  app.get(
    '/api/ping',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'Liveness: answers when the service runs and reaches its database',
        response: {
          200: DocumentSchema(
            ResourceSchema(
              'ping',
              Type.Object({ status: Type.Literal('ok'), time: Timestamp, database: Type.String() }),
            ),
          ),
        },
      },
    },
    async () => {
      await database.db.execute('SELECT 1');
      return {
        data: resource('ping', 'ping', {
          status: 'ok' as const,
          time: formatTimestamp(clock.now()),
          database: database.engine,
        }),
      };
    },
  );

  app.get(
    '/api/i18n/locales',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'Locales the service speaks; negotiate with Accept-Language',
        response: {
          200: CollectionSchema(LocaleSchema, {
            negotiated: Type.String({ description: 'the locale picked from Accept-Language' }),
          }),
        },
      },
    },
    async (request) => ({
      data: supportedLocales.map((locale) =>
        resource('locales', locale, {
          ...localeNames[locale],
          language: locale.split('-')[0] ?? locale,
          default: locale === defaultLocale,
        }),
      ),
      meta: { limit: supportedLocales.length, negotiated: request.locale },
      links: { self: '/api/i18n/locales', first: '/api/i18n/locales', prev: null, next: null },
    }),
  );
}
