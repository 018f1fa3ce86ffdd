/** The 3 hashtag discovery routes: autocomplete, trending, related (public, keyset pages). */
import { Type } from 'typebox';
import type { Keyset } from '../../platform/db/keyset.ts';
import { CollectionSchema } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { relatedKeyset, suggestionsKeyset, trendingKeyset } from './hashtags.repository.ts';
import {
  HashtagSuggestionSchema,
  presentRelated,
  presentSuggestion,
  presentTrending,
  RelatedHashtagSchema,
  TrendingHashtagSchema,
} from './presenters.ts';
import type { HashtagsServices } from './public.ts';

const base = '/api/media/hashtags';
/** Short lists: 10 by default, 50 at most. */
const page = <Row>(keyset: Keyset<Row>) => ({ keyset, defaultLimit: 10, maxLimit: 50 });
// Room for a '#' and spaces around a 64-character tag; the service checks the tag itself.
const tagText = (description: string) => Type.String({ minLength: 1, maxLength: 100, description });

export function hashtagsRoutes({ hashtags }: Pick<HashtagsServices, 'hashtags'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: `${base}/autocomplete`,
      auth: 'none',
      summary: 'Hashtags starting with q, then hashtags similar to q, each group by number of listed posts',
      description:
        "q is compared like stored hashtags: one leading '#' dropped, case and accents ignored; it is matched " +
        'literally (no wildcard). Counts follow each post right after its writes commit (a ban too).',
      query: { q: tagText('What the user typed: 1 to 64 characters once normalized') },
      page: page(suggestionsKeyset),
      success: { status: 200, schema: CollectionSchema(HashtagSuggestionSchema) },
      handler: async ({ query, page, links }) =>
        listDocument(await hashtags.suggest(query.q, page), { page, links }, suggestionsKeyset, presentSuggestion),
    }),
    route({
      method: 'GET',
      path: `${base}/trending`,
      auth: 'none',
      summary: 'Hashtags used more in the last windowDays days than in the as many days before',
      description:
        'Windows are whole UTC days, today included. Ranked by score = (uses + 5) / (previousUses + 5), then ' +
        'uses; only tags with uses > previousUses are listed.',
      query: {
        windowDays: Type.Optional(
          Type.Integer({ minimum: 1, maximum: 90, default: 7, description: 'Days in each window, 1 to 90' }),
        ),
      },
      page: page(trendingKeyset),
      success: { status: 200, schema: CollectionSchema(TrendingHashtagSchema) },
      handler: async ({ query, page, links }) => {
        const rows = await hashtags.trending(query.windowDays ?? 7, page);
        return listDocument(rows, { page, links }, trendingKeyset, presentTrending);
      },
    }),
    route({
      method: 'GET',
      path: `${base}/related`,
      auth: 'none',
      summary: 'Hashtags found on the same listed posts as tag, by number of posts shared',
      description:
        "tag is normalized like stored hashtags (one leading '#' dropped, lowercase); an unknown tag has none.",
      query: { tag: tagText('The hashtag, with or without its #') },
      page: page(relatedKeyset),
      success: { status: 200, schema: CollectionSchema(RelatedHashtagSchema) },
      handler: async ({ query, page, links }) =>
        listDocument(await hashtags.related(query.tag, page), { page, links }, relatedKeyset, presentRelated),
    }),
  ];
}
