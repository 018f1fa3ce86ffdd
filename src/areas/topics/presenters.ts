import { Type } from 'typebox';
import { ResourceSchema, resource } from '../../platform/http/jsonapi.ts';
import { hasMessage, type Locale, translate } from '../../platform/i18n/i18n.ts';
import type { TopicRow } from './tables.ts';

export const TopicSchema = ResourceSchema(
  'topics',
  Type.Object({
    slug: Type.String({ description: 'Stable name, e.g. `beaches`; what PUT /api/users/me/topics takes' }),
    label: Type.String({ description: 'In the negotiated locale' }),
    icon: Type.String({ description: 'An icon name (kebab-case), mapped by the client to its icon set' }),
    hashtags: Type.Array(Type.String(), { description: "Media hashtags the topic stands for (lowercase, no '#')" }),
  }),
  undefined,
  'Topic',
);

const labelOf = (topic: TopicRow, locale: Locale) => {
  const key = `topics.${topic.slug}.label`;
  return hasMessage(key, locale) ? translate(locale, key) : topic.slug;
};

export function presentTopic(topic: TopicRow, locale: Locale) {
  return resource('topics', topic.id, {
    slug: topic.slug,
    label: labelOf(topic, locale),
    icon: topic.icon,
    hashtags: topic.hashtags,
  });
}
