/**
 * Topics: the catalogue and the set each user follows. PUT replaces the whole set: slugs are folded
 * to lowercase and deduplicated, every unknown one is reported (422, one error per element), and a
 * user follows at most maxTopicsPerUser topics. hashtagsOfUser feeds discovery's personalization.
 */
import type { Clock } from '../../platform/clock.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { AppError, AppErrors } from '../../platform/http/error-catalogue.ts';
import type { UsersService } from '../accounts/public.ts';
import type { TopicRow } from './tables.ts';
import type { TopicsRepository } from './topics.repository.ts';

export const maxTopicsPerUser = 10;

export interface TopicsServiceDeps {
  transactions: Transactions;
  repository: TopicsRepository;
  users: UsersService;
  clock: Clock;
}

export class TopicsService {
  readonly #deps: TopicsServiceDeps;

  constructor(deps: TopicsServiceDeps) {
    this.#deps = deps;
  }

  list(page: PageRequest): Promise<TopicRow[]> {
    return this.#deps.repository.list(page);
  }

  listOfUser(userId: string, page: PageRequest): Promise<TopicRow[]> {
    return this.#deps.repository.listOfUser(userId, page);
  }

  /** Replaces the user's topics with `slugs`; answers the new set in catalogue order. */
  async replaceOfUser(userId: string, slugs: string[]): Promise<TopicRow[]> {
    const folded = slugs.map((slug) => slug.trim().toLowerCase());
    const distinct = [...new Set(folded)];
    const known = new Map((await this.#deps.repository.bySlugs(distinct)).map((topic) => [topic.slug, topic]));
    const unknown = folded.flatMap((slug, index) =>
      known.has(slug)
        ? []
        : [
            new AppError('validationFailed', {
              source: { pointer: `/topics/${index}` },
              detail: `unknown topic ${JSON.stringify(slugs[index])}`,
              meta: { slug: slugs[index] },
            }),
          ],
    );
    if (unknown.length > 0) throw new AppErrors(422, unknown);
    if (distinct.length > maxTopicsPerUser) {
      throw new AppError('validationFailed', {
        source: { pointer: '/topics' },
        detail: `at most ${maxTopicsPerUser} different topics`,
        meta: { maxTopics: maxTopicsPerUser },
      });
    }
    const topicIds = distinct.flatMap((slug) => known.get(slug)?.id ?? []);
    return this.#deps.transactions.run(async () => {
      await this.#deps.users.lock(userId);
      await this.#deps.repository.replaceOfUser(userId, topicIds, this.#deps.clock.now());
      return this.#deps.repository.allOfUser(userId);
    });
  }

  /** The union of the hashtags of the user's topics, sorted; empty when they follow none. */
  async hashtagsOfUser(userId: string): Promise<string[]> {
    const lists = await this.#deps.repository.hashtagListsOfUser(userId);
    return [...new Set(lists.flat())].sort();
  }
}
