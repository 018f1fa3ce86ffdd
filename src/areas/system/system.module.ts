/**
 * System: liveness, the supported locales, and the operations API: running a job now, the audit log,
 * maintenance mode, cache purges and statistics (the `stats` job refreshes the statistics snapshot).
 */

import { registerRoutes } from '../../platform/http/route.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { auditAdminRoutes } from './audit.admin-routes.ts';
import { cacheAdminRoutes } from './cache.admin-routes.ts';
import { jobsAdminRoutes } from './jobs.admin-routes.ts';
import { maintenanceAdminRoutes } from './maintenance.admin-routes.ts';
import { statsAdminRoutes } from './stats.admin-routes.ts';
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
    registerRoutes(app, 'system', systemRoutes(platform));
    registerRoutes(app, 'admin', [
      ...jobsAdminRoutes(platform),
      ...auditAdminRoutes(platform),
      ...maintenanceAdminRoutes(platform),
      ...cacheAdminRoutes(platform),
      ...statsAdminRoutes(platform),
    ]);
  },
});
