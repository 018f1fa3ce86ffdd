/**
 * System: liveness, the supported locales, and the operations API: running a job now, the audit log,
 * maintenance mode, cache purges and statistics (the `stats` job refreshes the statistics snapshot).
 */
import { formatTimestamp } from '../../platform/http/time.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { auditRoutes } from './audit.routes.ts';
import { cacheRoutes } from './cache.routes.ts';
import { jobsRoutes } from './jobs.routes.ts';
import { maintenanceRoutes } from './maintenance.routes.ts';
import { statsRoutes } from './stats.routes.ts';
import { systemRoutes } from './system.routes.ts';

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    system: Record<string, never>;
  }
}

export const systemArea = defineArea({
  name: 'system',
  needs: [],
  create: ({ jobs, stats }) => {
    // On demand (POST /admin/jobs/flush/stats): computes the snapshot now and keeps it on this instance.
    jobs.register('stats', {
      schedule: null,
      run: async () => {
        const snapshot = await stats.refresh();
        return {
          computedAt: formatTimestamp(snapshot.computedAt),
          counts: snapshot.counts,
          backlogs: snapshot.backlogs,
        };
      },
    });
    return {};
  },
  routes(app, _services, platform) {
    systemRoutes(app, platform);
    jobsRoutes(app, platform);
    auditRoutes(app, platform);
    maintenanceRoutes(app, platform);
    cacheRoutes(app, platform);
    statsRoutes(app, platform);
  },
});
