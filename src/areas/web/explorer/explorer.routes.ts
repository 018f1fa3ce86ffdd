/**
 * The explorer: GET /explorer (a full-screen map of public photos that loads GET /api/media/in-bounds
 * as it moves) and GET /explorer/photos/{mediaId} (the photo panel's content, an HTML fragment).
 */
import { Type } from 'typebox';
import { AppError } from '../../../platform/http/error-catalogue.ts';
import { type AnyRoute, route } from '../../../platform/http/route.ts';
import { translate } from '../../../platform/i18n/i18n.ts';
import { assetUrl, loadClientAssets } from '../assets/client-assets.ts';
import { renderMarkup } from '../layout/html.ts';
import { pageLocale } from '../layout/locale.ts';
import { blursSensitiveMedia, pageContext } from '../layout/page-context.ts';
import { renderPage } from '../layout/render-page.ts';
import { htmlMediaType, sendPage } from '../layout/send-page.ts';
import type { WebServices } from '../public.ts';
import { explorerPageBody, type MapSettings } from './explorer-page.ts';
import { loadPhotoPanel, photoPanelMarkup } from './photo-panel.ts';

export function explorerRoutes({ photoPanel }: Pick<WebServices, 'photoPanel'>, map: MapSettings): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/explorer',
      auth: 'optional',
      summary: 'The explorer: a full-screen map of public photos, clustered as counts, each opening in a panel',
      description:
        'HTML. The map is drawn offline from Natural Earth country shapes (GET /assets/...), or from the tile server of ' +
        'MAP_TILE_URL when set; its script loads GET /api/media/in-bounds as the map moves.',
      success: { status: 200, mediaType: htmlMediaType, description: 'The explorer page' },
      handler: async ({ request, reply, viewer }) => {
        await loadClientAssets();
        const context = await pageContext(request, viewer);
        const t = (key: string) => translate(context.locale, key);
        const page = renderPage(context, {
          title: t('explorer.title'),
          description: t('explorer.description'),
          canonicalPath: '/explorer',
          body: explorerPageBody(context, map),
          styles: [assetUrl('explorer.css')],
          // carousel.js: the keys of a post's carousel in the photo panel.
          scripts: [assetUrl('explorer.js'), assetUrl('carousel.js')],
          fullScreen: true,
        });
        return sendPage(reply, page);
      },
    }),
    route({
      method: 'GET',
      path: '/explorer/photos/{mediaId}',
      auth: 'optional',
      summary: "The explorer's photo panel: one public photo with its description, author and place (an HTML fragment)",
      description:
        "A photo marked sensitive is blurred behind its warning unless the signed-in viewer's blurSensitiveMedia is off.",
      params: { mediaId: Type.String({ maxLength: 64, description: 'The media id: UUID or 32 hex digits' }) },
      errors: ['notFound'],
      success: { status: 200, mediaType: htmlMediaType, description: 'The panel (a fragment of HTML, not a page)' },
      handler: async ({ params, request, reply, viewer }) => {
        const locale = pageLocale(request);
        const [panel, blur] = await Promise.all([
          loadPhotoPanel(photoPanel, params.mediaId, locale, viewer?.userId ?? null),
          blursSensitiveMedia(request, viewer),
        ]);
        if (panel === null) throw new AppError('notFound');
        // Public content that changes (likes, descriptions): a short shared cache is fine, for visitors;
        // a signed-in viewer's panel follows their settings and their blocks, so it is theirs alone.
        reply
          .header('Cache-Control', viewer === null ? 'public, max-age=60' : 'private, max-age=60')
          .header('Vary', 'Accept-Language, Cookie')
          // A piece of the explorer, not a page to list in search results.
          .header('X-Robots-Tag', 'noindex');
        return reply.type(htmlMediaType).send(renderMarkup(photoPanelMarkup(panel, locale, blur)));
      },
    }),
  ];
}
