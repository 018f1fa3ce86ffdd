/**
 * The probes of load balancers and orchestrators, on the public port: GET /health/live (the process
 * answers; never the database) and GET /health/ready (readiness.ts). Not in the OpenAPI document:
 * they are for infrastructure, not API clients, and the interface does not list them. Both stay open
 * in maintenance mode. A probe sends no Accept header, so both always answer JSON.
 */
import { AppError } from '../http/error-catalogue.ts';
import type { App } from '../http/types.ts';
import type { Readiness } from './readiness.ts';

export const healthPaths = { live: '/health/live', ready: '/health/ready' } as const;

export function registerHealth(app: App, readiness: Readiness): void {
  const hidden = { schema: { hide: true } };
  app.get(healthPaths.live, hidden, async (_request, reply) =>
    reply.header('cache-control', 'no-store').type('application/json').send({ status: 'live' }),
  );
  app.get(healthPaths.ready, hidden, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const { ready, checks } = await readiness.check();
    if (!ready) throw new AppError('notReady', { meta: { checks } });
    return reply.type('application/json').send({ status: 'ready', checks });
  });
}
