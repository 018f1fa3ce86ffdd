/** All SQL of topics: the catalogue, and the topics each user follows. */
import { and, asc, eq, gt, inArray, notInArray, sql } from 'drizzle-orm';
import { defineKeyset, type Keyset } from '../../platform/db/keyset.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { PreparedPage, PreparedRead } from '../../platform/db/prepared-reads.ts';
import { Repository } from '../../platform/db/repository.ts';
import { type TopicRow, topics, userTopics } from './tables.ts';

/** Catalogue order as a descending key, since keyset pages run largest first. */
const catalogueOrder = (name: string): Keyset<TopicRow> =>
  defineKeyset<TopicRow>({
    name,
    shape: ['int', 'uuid'],
    columns: [sql`(-${topics.position})`, topics.id],
    keyOf: (topic) => [-topic.position, topic.id],
  });

/** The catalogue, in catalogue order. */
export const topicsKeyset = catalogueOrder('topics');
/** A user's topics, in catalogue order. */
export const userTopicsKeyset = catalogueOrder('user-topics');

/** What a topic shows (the catalogue's columns), for the lists that join topics. */
const topicColumns = {
  id: topics.id,
  slug: topics.slug,
  icon: topics.icon,
  hashtags: topics.hashtags,
  position: topics.position,
};

export class TopicsRepository extends Repository {
  readonly #catalogue = new PreparedPage<TopicRow>(
    this.source,
    'topics.catalogue',
    topicsKeyset,
    (db, where, orderBy) =>
      db
        .select()
        .from(topics)
        .where(where)
        .orderBy(...orderBy),
  );

  readonly #ofUser = new PreparedPage<TopicRow>(this.source, 'topics.ofUser', userTopicsKeyset, (db, where, orderBy) =>
    db
      .select(topicColumns)
      .from(userTopics)
      .innerJoin(topics, eq(topics.id, userTopics.topicId))
      .where(and(eq(userTopics.userId, sql.placeholder('userId')), where))
      .orderBy(...orderBy),
  );

  // Discovery reads it on every personalized request.
  readonly #hashtagsOfUser = new PreparedRead(this.source, 'topics.hashtagsOfUser', (db) =>
    db
      .select({ hashtags: topics.hashtags })
      .from(userTopics)
      .innerJoin(topics, eq(topics.id, userTopics.topicId))
      .where(eq(userTopics.userId, sql.placeholder('userId'))),
  );

  list(page: PageRequest): Promise<TopicRow[]> {
    return this.#catalogue.run(page, {});
  }

  listOfUser(userId: string, page: PageRequest): Promise<TopicRow[]> {
    return this.#ofUser.run(page, { userId });
  }

  /** Every topic of the user, in catalogue order. */
  async allOfUser(userId: string): Promise<TopicRow[]> {
    return this.db
      .select(topicColumns)
      .from(userTopics)
      .innerJoin(topics, eq(topics.id, userTopics.topicId))
      .where(eq(userTopics.userId, userId))
      .orderBy(asc(topics.position));
  }

  async bySlugs(slugs: string[]): Promise<TopicRow[]> {
    if (slugs.length === 0) return [];
    return this.db.select().from(topics).where(inArray(topics.slug, slugs));
  }

  /** The hashtag lists of the user's topics (one per topic). */
  async hashtagListsOfUser(userId: string): Promise<string[][]> {
    const rows = await this.#hashtagsOfUser.run({ userId });
    return rows.map((row) => row.hashtags);
  }

  /** An erased account (`user.erasing`): the topics it followed. */
  async eraseUser(userId: string): Promise<void> {
    await this.db.delete(userTopics).where(eq(userTopics.userId, userId));
  }

  /** Makes the user's set exactly `topicIds`; kept topics keep their createdAt. Call with the user locked. */
  async replaceOfUser(userId: string, topicIds: string[], at: Date): Promise<void> {
    await this.db
      .delete(userTopics)
      .where(
        and(
          eq(userTopics.userId, userId),
          topicIds.length === 0 ? undefined : notInArray(userTopics.topicId, topicIds),
        ),
      );
    if (topicIds.length === 0) return;
    await this.db
      .insert(userTopics)
      .values(topicIds.map((topicId) => ({ userId, topicId, createdAt: at })))
      .onConflictDoNothing();
  }

  /** The data export's topics a user picked (with each topic's slug), in keyset batches by topic id. */
  async exportRows(userId: string, after: string | null, limit: number) {
    return this.db
      .select({ topicId: userTopics.topicId, slug: topics.slug, createdAt: userTopics.createdAt })
      .from(userTopics)
      .innerJoin(topics, eq(topics.id, userTopics.topicId))
      .where(and(eq(userTopics.userId, userId), after === null ? undefined : gt(userTopics.topicId, after)))
      .orderBy(userTopics.topicId)
      .limit(limit);
  }
}
