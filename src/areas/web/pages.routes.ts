/**
 * The public pages (auth optional: a signed-in viewer shows in the header), the sitemap and robots.txt.
 * Each answers HTML in the layout; unknown places and profiles are the layout's 404 page.
 */
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { loadClientAssets } from './assets/client-assets.ts';
import { pageContext } from './layout/page-context.ts';
import { sendPage } from './layout/send-page.ts';
import { renderCommissions, renderHowItWorks } from './pages/explainers.page.ts';
import { renderHome } from './pages/home.page.ts';
import { renderPost } from './pages/post.page.ts';
import { renderProfile } from './pages/profile.page.ts';
import { renderSustainable } from './pages/sustainable.page.ts';
import { renderTravel } from './pages/travel.page.ts';
import type { WebServices } from './public.ts';
import { robotsTxt, sitemapXml } from './seo.ts';

const page = (description: string) => ({ status: 200 as const, mediaType: 'text/html', description });

/** The explainers (pages/explainers.page.ts): a page of text each, the same for every viewer but the header. */
const explainers = [
  { path: '/how-it-works', summary: 'What the service is and how it works (HTML)', render: renderHowItWorks },
  {
    path: '/commissions',
    summary: 'How creators earn commissions from the places their photos show (HTML)',
    render: renderCommissions,
  },
];

/** The sitemap and robots.txt: files for crawlers, which they and caches may keep an hour. */
const sendCrawlerFile = (reply: FastifyReply, type: string, body: string) =>
  reply.type(`${type}; charset=utf-8`).header('Cache-Control', 'public, max-age=3600').send(body);

export function pagesRoutes({ pages }: Pick<WebServices, 'pages'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/',
      auth: 'optional',
      summary: 'The home page: what trends, the newest public photos and the busiest places (HTML)',
      success: page('The home page'),
      handler: async ({ viewer, request, reply }) => {
        const [context, highlights] = await Promise.all([
          pageContext(request, viewer),
          pages.highlights(viewer?.userId ?? null),
        ]);
        return sendPage(reply, renderHome(context, highlights));
      },
    }),
    route({
      method: 'GET',
      path: '/travel',
      auth: 'optional',
      summary: 'Public photos by place: the countries, then a country (its cities and photos), then a city (HTML)',
      query: {
        country: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 code' })),
        city: Type.Optional(Type.String({ format: 'uuid', description: 'A city of that country (GET /api/cities)' })),
      },
      page: { keyset: pages.placeMediaKeyset, defaultLimit: 24, maxLimit: 48 },
      errors: ['notFound'],
      success: page(
        'The countries with public photos, or the photos of a country or city (24 a page, `cursor` for more)',
      ),
      handler: async ({ viewer, query, page: list, request, reply }) => {
        const [context, view] = await Promise.all([
          pageContext(request, viewer),
          pages.travel({ countryCode: query.country, cityId: query.city }, list, viewer?.userId ?? null),
        ]);
        return sendPage(reply, renderTravel(context, view));
      },
    }),
    route({
      method: 'GET',
      path: '/sustainable-tourism',
      auth: 'optional',
      summary: "The catalogue's establishments and their sustainability labels (HTML)",
      page: { keyset: pages.establishmentsKeyset, defaultLimit: 24, maxLimit: 48 },
      success: page('The establishments, newest first (24 a page, `cursor` for more), or a clear empty state'),
      handler: async ({ viewer, page: list, request, reply }) => {
        const [context, establishments] = await Promise.all([pageContext(request, viewer), pages.establishments(list)]);
        return sendPage(reply, renderSustainable(context, establishments));
      },
    }),
    ...explainers.map(({ path, summary, render }) =>
      route({
        method: 'GET',
        path,
        auth: 'optional',
        summary,
        success: page('The page'),
        handler: async ({ viewer, request, reply }) => sendPage(reply, render(await pageContext(request, viewer))),
      }),
    ),
    route({
      method: 'GET',
      path: '/@{username}',
      auth: 'optional',
      summary: "A user's public profile: names, counts, level, title, badges and public photos (HTML)",
      params: { username: Type.String({ minLength: 1, maxLength: 100, description: 'The username, any case' }) },
      page: { keyset: pages.profileMediaKeyset, defaultLimit: 24, maxLimit: 48 },
      errors: ['notFound'],
      success: page('The profile (24 photos a page, `cursor` for more); 404 for an unknown, banned or erased user'),
      handler: async ({ viewer, params, page: list, request, reply }) => {
        const [context, view] = await Promise.all([
          pageContext(request, viewer),
          pages.profile(params.username, list, viewer?.userId ?? null),
        ]);
        return sendPage(reply, renderProfile(context, view));
      },
    }),
    route({
      method: 'GET',
      path: '/posts/{postId}',
      // The API's GET /api/posts/{postId} would give the same operationId.
      operationId: 'getPostPage',
      auth: 'optional',
      summary: "A post's page: its photos as a carousel, its caption, author and counts (HTML)",
      params: {
        postId: Type.String({
          minLength: 1,
          maxLength: 64,
          description: "The post's id (its lead media's): UUID or 32 hex",
        }),
      },
      errors: ['notFound'],
      success: page('The post; 404 for one the viewer may not see (hidden, of a banned or blocked author)'),
      handler: async ({ viewer, params, request, reply }) => {
        const [context, view] = await Promise.all([
          pageContext(request, viewer),
          pages.post(params.postId, viewer?.userId ?? null),
          loadClientAssets(),
        ]);
        return sendPage(reply, renderPost(context, view));
      },
    }),
    route({
      method: 'GET',
      path: '/sitemap.xml',
      auth: 'none',
      summary: 'The sitemap: the pages, the countries of /travel and the public profiles',
      success: { status: 200, mediaType: 'application/xml', description: 'A sitemaps.org urlset' },
      handler: async ({ request, reply }) =>
        sendCrawlerFile(reply, 'application/xml', sitemapXml(request.server.publicUrl, await pages.sitemap())),
    }),
    route({
      method: 'GET',
      path: '/robots.txt',
      auth: 'none',
      summary: 'Where crawlers may go (pages, not the API) and where the sitemap is',
      success: { status: 200, mediaType: 'text/plain', description: 'robots.txt' },
      handler: async ({ request, reply }) => sendCrawlerFile(reply, 'text/plain', robotsTxt(request.server.publicUrl)),
    }),
  ];
}
