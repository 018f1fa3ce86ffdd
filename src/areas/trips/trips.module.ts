/** Trips: a user's placed photos grouped by place and time, recomputed on their changes and by a job. */
import { byId, singleRow } from '../../platform/exports/keyset-batches.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { everyMinutes } from '../../platform/jobs/jobs.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { TripsRepository } from './trips.repository.ts';
import { tripsRoutes } from './trips.routes.ts';
import { TripsService } from './trips.service.ts';

/** The media events that may change a user's trips. */
const mediaEvents = ['media.published', 'media.changed', 'media.deleted'] as const;

export const tripsArea = defineArea({
  name: 'trips',
  needs: ['accounts', 'media', 'geography'],
  create({ transactions, events, clock, jobs, exports }, { accounts }) {
    const repository = new TripsRepository(transactions);
    const trips = new TripsService({ transactions, repository, users: accounts.users, clock });
    for (const event of mediaEvents) {
      // Queued in the producer's transaction, recomputed once it commits (the job takes what is left).
      events.subscribe(event, 'inTransaction', `trips.queue.${event}`, async ({ media }) => {
        if (media.kind === 'post') await trips.queue(media.ownerId);
      });
      events.subscribe(event, 'afterCommit', `trips.recompute.${event}`, async ({ media }) => {
        if (media.kind === 'post') await trips.recompute(media.ownerId);
      });
    }
    events.subscribe('user.erasing', 'inTransaction', 'trips.erase', ({ userId }) => repository.eraseUser(userId));
    jobs.register('trips', { schedule: everyMinutes(10), run: () => trips.recomputeQueued() });
    exports.register({
      name: 'trips',
      description:
        'Your trips: their photos (media ids, in time order), your title, hidden, frozen (edited by you), dates.',
      rows: (userId) => byId((after, limit) => repository.exportTrips(userId, after, limit)),
    });
    exports.register({
      name: 'trip-home',
      description: 'The home position you set for your trips, if any.',
      rows: (userId) => singleRow(async () => (await repository.exportHome(userId))[0] ?? null),
    });
    return { trips };
  },
  routes: (app, services) => registerRoutes(app, 'trips', tripsRoutes(services)),
});
