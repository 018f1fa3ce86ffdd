/** Hashtags as JSON:API resources of type `hashtags`, id = the tag (lowercase, without '#'). */
import { Type } from 'typebox';
import { ResourceSchema, resource } from '../../platform/http/jsonapi.ts';
import type { RelatedRow, SuggestionRow, TrendingRow } from './hashtags.repository.ts';

const name = Type.String({ description: "The tag, lowercase, without '#' (the resource id too)" });

export const HashtagSuggestionSchema = ResourceSchema(
  'hashtags',
  Type.Object({
    name,
    uses: Type.Integer({ description: 'Publicly listed posts carrying the tag' }),
    match: Type.Union([Type.Literal('prefix'), Type.Literal('similar')], {
      description: 'prefix: the tag starts with q (accents and case ignored); similar: trigram-similar to q',
    }),
  }),
  undefined,
  'HashtagSuggestion',
);

export const TrendingHashtagSchema = ResourceSchema(
  'hashtags',
  Type.Object({
    name,
    uses: Type.Integer({ description: 'Listed posts carrying the tag created in the window' }),
    previousUses: Type.Integer({ description: 'The same in the window of as many days before it' }),
    score: Type.Number({ description: '(uses + 5) / (previousUses + 5): the ranking' }),
  }),
  undefined,
  'TrendingHashtag',
);

export const RelatedHashtagSchema = ResourceSchema(
  'hashtags',
  Type.Object({
    name,
    cooccurrences: Type.Integer({ description: 'Listed posts carrying both this tag and the one asked about' }),
  }),
  undefined,
  'RelatedHashtag',
);

export const presentSuggestion = (row: SuggestionRow) =>
  resource('hashtags', row.tag, { name: row.tag, uses: row.uses, match: row.prefix === 1 ? 'prefix' : 'similar' });

export const presentTrending = (row: TrendingRow) =>
  resource('hashtags', row.tag, { name: row.tag, uses: row.uses, previousUses: row.previousUses, score: row.score });

export const presentRelated = (row: RelatedRow) =>
  resource('hashtags', row.tag, { name: row.tag, cooccurrences: row.count });
