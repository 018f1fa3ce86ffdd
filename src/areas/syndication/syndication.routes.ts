/**
 * Syndication's routes: every registered feed as RSS 2.0 and Atom (`<path>.rss`, `<path>.atom`, with
 * ETag / If-None-Match and Last-Modified), and GET /api/oembed. The embeddable cards are the web area's.
 */
import { Type } from 'typebox';
import { alsoAnswer } from '../../platform/http/answers.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { matchesEtag } from '../../platform/http/etags.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { type FeedFormat, feedFormats } from './feed.ts';
import { feedCache } from './feeds.service.ts';
import type { SyndicationServices } from './public.ts';

const OEmbedSchema = Type.Object(
  {
    version: Type.Literal('1.0'),
    type: Type.Union([Type.Literal('photo'), Type.Literal('rich')]),
    title: Type.String(),
    author_name: Type.Optional(Type.String()),
    author_url: Type.Optional(Type.String()),
    provider_name: Type.String(),
    provider_url: Type.String(),
    cache_age: Type.Integer(),
    width: Type.Integer(),
    height: Type.Integer(),
    url: Type.Optional(Type.String({ description: 'photo: the served variant that fits maxwidth and maxheight' })),
    html: Type.Optional(Type.String({ description: 'The card page in an iframe (sandboxed, no script)' })),
    thumbnail_url: Type.Optional(Type.String()),
    thumbnail_width: Type.Optional(Type.Integer()),
    thumbnail_height: Type.Optional(Type.Integer()),
  },
  { $id: 'OEmbed', description: 'An oEmbed 1.0 response (https://oembed.com)' },
);

const feedRoutes = ({ feeds }: Pick<SyndicationServices, 'feeds'>): AnyRoute[] =>
  feeds.sources.entries().flatMap(([kind, source]) =>
    (Object.keys(feedFormats) as FeedFormat[]).map((format) => {
      const { extension, mediaType } = feedFormats[format];
      return route({
        method: 'GET',
        path: `${source.path}.${extension}`,
        auth: 'none',
        summary: `${format === 'rss' ? 'RSS 2.0' : 'Atom'} feed of ${source.summary}`,
        description: `The newest 20, public content only, each with its large variant as the enclosure; kept ${feedCache.seconds} s per instance. ETag and Last-Modified; If-None-Match answers 304.`,
        params: { [source.param.name]: source.param.schema },
        errors: ['notFound'],
        success: {
          status: 200,
          mediaType,
          description: 'The feed',
          also: { 304: 'Not modified since the ETag given in If-None-Match' },
        },
        handler: async ({ params, request, reply, locale }) => {
          const key = String((params as Record<string, unknown>)[source.param.name]);
          const served = await feeds.serve(kind, key, format, locale, request.server.publicUrl);
          if (served === null) throw new AppError('notFound');
          reply.headers({
            ETag: served.etag,
            'Last-Modified': served.lastModified.toUTCString(),
            'Cache-Control': `public, max-age=${feedCache.seconds}`,
          });
          if (matchesEtag(request.headers['if-none-match'], served.etag)) return alsoAnswer(304);
          return reply.type(`${mediaType}; charset=utf-8`).send(served.body);
        },
      });
    }),
  );

export function syndicationRoutes({ feeds, oembed }: Pick<SyndicationServices, 'feeds' | 'oembed'>): AnyRoute[] {
  return [
    ...feedRoutes({ feeds }),
    route({
      method: 'GET',
      path: '/api/oembed',
      auth: 'none',
      summary: 'oEmbed 1.0 for a post, a profile or a trip of this site (JSON)',
      description:
        'A plain JSON answer (`application/json`), as oEmbed asks. 404 for a URL of another site, of no page oEmbed knows or of content that is not public; 501 for any format but json.',
      query: {
        url: Type.String({
          minLength: 1,
          maxLength: 2048,
          description: 'The page: /embed/posts/{id}, /@{username}, /trips/{id}',
        }),
        format: Type.Optional(
          Type.String({ maxLength: 16, description: '`json` (the default); anything else is 501' }),
        ),
        maxwidth: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
        maxheight: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
      },
      errors: ['notFound', 'formatNotImplemented'],
      success: { status: 200, schema: OEmbedSchema },
      handler: async ({ query, request, reply, locale }) => {
        if (query.format !== undefined && query.format !== 'json') {
          throw new AppError('formatNotImplemented', {
            source: { parameter: 'format' },
            meta: { supported: ['json'] },
          });
        }
        const answer = await oembed.answer(query, request.server.publicUrl, locale);
        reply.header('Cache-Control', 'public, max-age=300').header('Access-Control-Allow-Origin', '*');
        return answer;
      },
    }),
  ];
}
