/** GET /admin/stats: counts, rolling windows and queue depths, kept statsSnapshot.seconds per instance. */
import { Type } from 'typebox';
import { DocumentSchema, Nullable, ResourceSchema, resource, Timestamp } from '../../platform/http/jsonapi.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import type { Platform } from '../../platform/modules/area-module.ts';
import { type StatsSnapshot, statsSnapshot } from '../../platform/stats/stats.ts';

const Counts = Type.Object(
  {
    total: Type.Integer(),
    day: Type.Integer({ description: 'Created in the last 24 hours' }),
    week: Type.Integer({ description: 'Created in the last 7 days' }),
    month: Type.Integer({ description: 'Created in the last 30 days' }),
  },
  { additionalProperties: Type.Integer(), description: "Other integers are the provider's own figures (open reports)" },
);

const StatsSchema = ResourceSchema(
  'stats',
  Type.Object({
    counts: Type.Record(Type.String(), Counts, { description: 'Per kind of row: users, media, sessions…' }),
    backlogs: Type.Record(Type.String(), Type.Integer(), { description: 'Work waiting, per queue' }),
    jobs: Nullable(
      Type.Record(Type.String(), Type.Object({ queued: Type.Integer(), active: Type.Integer() }), {
        description: 'pg-boss jobs per job name; null when this instance does not run the job queue',
      }),
    ),
    windows: Type.Object({ day: Timestamp, week: Timestamp, month: Timestamp }),
  }),
  undefined,
  'Stats',
);

export const presentStats = (snapshot: StatsSnapshot) => ({
  data: resource('stats', 'stats', {
    counts: snapshot.counts,
    backlogs: snapshot.backlogs,
    jobs: snapshot.jobs,
    windows: {
      day: formatTimestamp(snapshot.since.day),
      week: formatTimestamp(snapshot.since.week),
      month: formatTimestamp(snapshot.since.month),
    },
  }),
  meta: { computedAt: formatTimestamp(snapshot.computedAt), keptSeconds: statsSnapshot.seconds },
});

export function statsAdminRoutes({ stats }: Pick<Platform, 'stats'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/admin/stats',
      auth: 'admin',
      summary: `Totals and rolling-window counts, backlogs and job queues (computed at most every ${statsSnapshot.seconds} s per instance)`,
      success: {
        status: 200,
        schema: DocumentSchema(StatsSchema, {
          meta: Type.Object({ computedAt: Timestamp, keptSeconds: Type.Integer() }),
        }),
      },
      handler: async () => presentStats(await stats.snapshot()),
    }),
  ];
}
