/** Topics: the catalogue, and the topics I follow (read, and replace as a whole). */
import { Type } from 'typebox';
import { CollectionSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { presentTopic, TopicSchema } from './presenters.ts';
import type { TopicsServices } from './public.ts';
import { topicsKeyset, userTopicsKeyset } from './topics.repository.ts';
import { maxTopicsPerUser } from './topics.service.ts';

const MyTopicsMeta = { maxTopics: Type.Integer({ description: 'How many topics a user may follow' }) };

export function topicsRoutes({ topics }: Pick<TopicsServices, 'topics'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/api/topics',
      auth: 'none',
      summary: 'The catalogue of travel topics, in catalogue order, labels in the negotiated locale',
      page: { keyset: topicsKeyset, defaultLimit: 50 },
      success: { status: 200, schema: CollectionSchema(TopicSchema) },
      handler: async ({ page, locale, links }) =>
        listDocument(await topics.list(page), { page, links }, topicsKeyset, (topic) => presentTopic(topic, locale)),
    }),
    route({
      method: 'GET',
      path: '/api/users/me/topics',
      auth: 'user',
      summary: 'The topics I follow, in catalogue order',
      page: { keyset: userTopicsKeyset, defaultLimit: 50 },
      success: { status: 200, schema: CollectionSchema(TopicSchema, MyTopicsMeta) },
      handler: async ({ viewer, page, locale, links }) => {
        const rows = await topics.listOfUser(viewer.userId, page);
        return listDocument(rows, { page, links }, userTopicsKeyset, (topic) => presentTopic(topic, locale), {
          maxTopics: maxTopicsPerUser,
        });
      },
    }),
    route({
      method: 'PUT',
      path: '/api/users/me/topics',
      auth: 'user',
      summary: 'Replace the topics I follow with the given slugs (duplicates folded; unknown slugs 422)',
      body: Type.Object(
        {
          topics: Type.Array(Type.String({ maxLength: 64 }), {
            maxItems: 100,
            description: `Topic slugs; at most ${maxTopicsPerUser} different ones; [] follows none`,
          }),
        },
        { additionalProperties: false },
      ),
      success: {
        status: 200,
        schema: DocumentSchema(Type.Array(TopicSchema), {
          meta: Type.Object({ count: Type.Integer(), ...MyTopicsMeta }),
        }),
      },
      handler: async ({ viewer, body, locale }) => {
        const chosen = await topics.replaceOfUser(viewer.userId, body.topics);
        return {
          data: chosen.map((topic) => presentTopic(topic, locale)),
          meta: { count: chosen.length, maxTopics: maxTopicsPerUser },
        };
      },
    }),
  ];
}
