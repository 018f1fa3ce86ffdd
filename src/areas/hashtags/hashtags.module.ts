/**
 * Hashtags: autocomplete, trending and related tags of publicly listed posts. Requests read only this
 * area's derived tables. Media events (published, changed, deleted) move them at once; the
 * `hashtags` job rebuilds them from media every 5 minutes (and on POST /admin/jobs/flush/hashtags),
 * repairing what no event tells (bans) and any drift.
 */

import { registerRoutes } from '../../platform/http/route.ts';
import { everyMinutes } from '../../platform/jobs/jobs.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { HashtagsRepository } from './hashtags.repository.ts';
import { hashtagsRoutes } from './hashtags.routes.ts';
import { HashtagsService } from './hashtags.service.ts';

export const hashtagsArea = defineArea({
  name: 'hashtags',
  needs: [],
  create({ transactions, events, jobs, clock, caches }) {
    const hashtags = new HashtagsService(transactions, new HashtagsRepository(transactions), clock);
    caches.register('hashtags.trending', hashtags.cache);
    jobs.register('hashtags', { schedule: everyMinutes(5), run: () => hashtags.rebuild() });
    // After the commit: a failure is logged and the next run of the job repairs the counts.
    for (const event of ['media.published', 'media.changed', 'media.deleted'] as const) {
      events.subscribe(event, 'afterCommit', `hashtags.${event}`, ({ media }) => hashtags.resync(media.id));
    }
    return { hashtags };
  },
  routes: (app, services) => registerRoutes(app, 'hashtags', hashtagsRoutes(services)),
});
