/**
 * Holds every answer a test observes to the OpenAPI document: each status a route answered must be one
 * its declaration documents. Attached to every test app; a test file whose requests met an undeclared
 * status fails when its app closes, naming the route and the status.
 */
import type { App } from '../../src/platform/http/types.ts';

interface Observation {
  method: string;
  path: string;
  status: number;
}

/** `/api/users/:userId/likes` -> `/api/users/{userId}/likes`, as the document writes paths. */
const documentPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

export function watchStatuses(app: App): { undeclared(): string[] } {
  const observed = new Map<string, Observation>();
  app.addHook('onResponse', async (request, reply) => {
    const url = request.routeOptions.url;
    if (url === undefined || request.method === 'HEAD') return;
    const observation = { method: request.method.toLowerCase(), path: documentPath(url), status: reply.statusCode };
    observed.set(`${observation.method} ${observation.path} ${observation.status}`, observation);
  });
  return {
    undeclared() {
      const paths = (
        app.swagger() as { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> }
      ).paths;
      const problems: string[] = [];
      for (const { method, path, status } of observed.values()) {
        const operation = paths[path]?.[method];
        if (operation === undefined) continue; // not in the document (its own JSON, the docs page)
        if (!operation.responses || !(String(status) in operation.responses)) {
          problems.push(`${method.toUpperCase()} ${path} answered ${status}, which its declaration does not document`);
        }
      }
      return problems;
    },
  };
}
