/** System: liveness, the supported locales, and running a job now (POST /admin/jobs/flush/{job}). */
import { defineArea } from '../../platform/modules/area-module.ts';
import { jobsRoutes } from './jobs.routes.ts';
import { systemRoutes } from './system.routes.ts';

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    system: Record<string, never>;
  }
}

export const systemArea = defineArea({
  name: 'system',
  needs: [],
  create: () => ({}),
  routes(app, _services, platform) {
    systemRoutes(app, platform);
    jobsRoutes(app, platform);
  },
});
