/**
 * GET /metrics on a port of its own (METRICS_PORT), apart from the public server: a load balancer
 * routes the public port only, so the metrics are reachable where the operator opens this port (a
 * private network, the pod's port for Prometheus) and nowhere else. Nothing else is served here.
 */
import type { Server } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Metrics } from './metrics.ts';

// Not an ES import of node:http, which loads Node's fetch (undici) at start (docs/development.md, Conventions).
const { createServer } = process.getBuiltinModule('node:http');

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(
  metrics: Metrics,
  where: { host: string; port: number },
  logger: FastifyBaseLogger,
): Promise<MetricsServer> {
  metrics.collectProcessMetrics();
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: GET /metrics\n');
      return;
    }
    metrics.scrape().then(
      ({ contentType, body }) => {
        response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        logger.error({ event: 'metrics.scrapeFailed', err: error }, 'metrics not collected');
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics not collected\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as { port: number };
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
