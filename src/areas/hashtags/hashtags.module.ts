/**
 * Hashtags: autocomplete, trending and related tags of publicly listed posts. Requests read only this
 * area's derived tables. Media events (published, changed, deleted) and an owner's ban or its end move
 * them right after the commit (a failed update is tried again by the job after-commit-retries); the
 * `hashtags` job rebuilds them from media once a day (and on POST /admin/jobs/flush/hashtags),
 * repairing what a given-up update left and rows written behind the service's back.
 */

import { registerRoutes } from '../../platform/http/route.ts';
import { dailyAt } from '../../platform/jobs/jobs.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import '../accounts/events.ts';
import '../media/events.ts';
import { CountedPostsRepository } from './counted-posts.repository.ts';
import { HashtagsRepository } from './hashtags.repository.ts';
import { hashtagsRoutes } from './hashtags.routes.ts';
import { HashtagsService } from './hashtags.service.ts';

export const hashtagsArea = defineArea({
  name: 'hashtags',
  needs: [],
  create({ transactions, events, jobs, clock, caches }) {
    const hashtags = new HashtagsService({
      transactions,
      repository: new HashtagsRepository(transactions),
      counts: new CountedPostsRepository(transactions),
      clock,
    });
    caches.register('hashtags.trending', hashtags.cache);
    // Once a day, at 03:45 (after the search repair at 03:15): it reads every listed post (12 to 19 s
    // at a million media) to find what no event moved, which the after-commit resyncs leave only when
    // one was given up after its retries (an operator flushes the job after writing behind the
    // service's back).
    jobs.register('hashtags', { schedule: dailyAt(3, 45), run: () => hashtags.rebuild() });
    // After the commit; a resync that fails is tried again by the job after-commit-retries.
    const resyncPost = (mediaId: string) => hashtags.resync([mediaId]);
    for (const event of ['media.published', 'media.changed', 'media.deleted'] as const) {
      events.subscribeRetried(event, 'hashtags.resync', ({ media }) => media.id, resyncPost);
    }
    const resyncOwner = (userId: string) => hashtags.resyncOwner(userId);
    for (const event of ['user.banned', 'user.unbanned'] as const) {
      events.subscribeRetried(event, 'hashtags.resyncOwner', ({ userId }) => userId, resyncOwner);
    }
    // An erased user's id is kept nowhere, a retry of their posts' resync included.
    events.subscribe('user.erasing', 'inTransaction', 'hashtags.forgetRetries', ({ userId }) =>
      events.forgetRetries('hashtags.resyncOwner', userId),
    );
    return { hashtags };
  },
  routes: (app, services) => registerRoutes(app, 'hashtags', hashtagsRoutes(services)),
});
