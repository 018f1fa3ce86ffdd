/**
 * The embeddable cards oEmbed's `html` frames: GET /embed/posts/{id} (a member photo's id shows its
 * post) and GET /embed/@{username}. Public content only (404 otherwise), the same for everyone (no
 * viewer: a third-party iframe carries no session worth reading), framable by any site, cached five
 * minutes by anyone.
 */
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { firstPage } from '../../../platform/db/page-request.ts';
import { AppError } from '../../../platform/http/error-catalogue.ts';
import { type AnyRoute, route } from '../../../platform/http/route.ts';
import { loadPhotoPanel } from '../explorer/photo-panel.ts';
import { pageContext } from '../layout/page-context.ts';
import { htmlMediaType, sendPage } from '../layout/send-page.ts';
import type { WebServices } from '../public.ts';
import { renderPostEmbed, renderProfileEmbed } from './embed-pages.ts';

const card = (description: string) => ({ status: 200 as const, mediaType: htmlMediaType, description });
const embedThumbs = 6;

const sendCard = (reply: FastifyReply, page: string) =>
  sendPage(reply.header('Cache-Control', 'public, max-age=300'), page);

export function embedRoutes({ pages, photoPanel }: Pick<WebServices, 'pages' | 'photoPanel'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/embed/posts/{mediaId}',
      auth: 'none',
      summary: "A post's embeddable card: its photos, caption, author and place (HTML, framable by any site)",
      params: {
        mediaId: Type.String({ maxLength: 64, description: "The post's id (its lead media's): UUID or 32 hex digits" }),
      },
      errors: ['notFound'],
      success: card('The card; 404 for a post that is not public'),
      handler: async ({ params, request, reply }) => {
        const context = await pageContext(request, null, { framing: 'anyone' });
        const panel = await loadPhotoPanel(photoPanel, params.mediaId, context.locale, null);
        if (panel === null) throw new AppError('notFound');
        return sendCard(reply, renderPostEmbed(context, panel));
      },
    }),
    route({
      method: 'GET',
      path: '/embed/@{username}',
      auth: 'none',
      summary: "A profile's embeddable card: names, photo count and the newest public photos (HTML, framable)",
      params: { username: Type.String({ minLength: 1, maxLength: 100, description: 'The username, any case' }) },
      errors: ['notFound'],
      success: card('The card; 404 for an unknown, banned or erased user'),
      handler: async ({ params, request, reply }) => {
        const [context, view] = await Promise.all([
          pageContext(request, null, { framing: 'anyone' }),
          pages.profile(params.username, firstPage(embedThumbs, 'embed-profile'), null),
        ]);
        return sendCard(reply, renderProfileEmbed(context, view));
      },
    }),
  ];
}
