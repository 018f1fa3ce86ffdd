/**
 * buildApp(deps): the Fastify instance with the platform plugins and every area's routes. It never
 * listens (main.ts does), so tests use inject() without a port.
 */
import Fastify, { type FastifyBaseLogger, type FastifyServerOptions, LogController } from 'fastify';
import { areaModules } from './areas/areas.ts';
import type { Config } from './config.ts';
import type { AppDeps } from './deps.ts';
import { isPostgres } from './platform/db/postgres-database.ts';
import { registerHealth } from './platform/health/health-routes.ts';
import { registerAccessLog } from './platform/http/access-log.ts';
import { registerAuth } from './platform/http/auth.ts';
import { handleClientError } from './platform/http/client-errors.ts';
import { registerContentTypes } from './platform/http/content-types.ts';
import { registerCors } from './platform/http/cors.ts';
import { registerErrorHandling, registerNotFound, sendFrameworkError } from './platform/http/error-handler.ts';
import { registerFormBodies } from './platform/http/form-bodies.ts';
import { registerNulGuard } from './platform/http/nul-guard.ts';
import { registerOpenApi } from './platform/http/openapi.ts';
import { registerRateLimits } from './platform/http/rate-limit.ts';
import { RecentWriters, registerReadRouting } from './platform/http/read-routing.ts';
import { registerSecurityHeaders } from './platform/http/security-headers.ts';
import { serializerCompiler } from './platform/http/serialization.ts';
import { toSpecPath } from './platform/http/spec-path.ts';
import type { App, RouteAuth } from './platform/http/types.ts';
import { validatorCompiler } from './platform/http/validation.ts';
import { defaultLocale, negotiateLocale } from './platform/i18n/i18n.ts';
import type { MailDelivery } from './platform/mail-outbox/mail-outbox.ts';
import { registerMaintenance } from './platform/maintenance/maintenance-hook.ts';
import { registerHttpMetrics } from './platform/metrics/http-metrics.ts';
import { createServices, type Services } from './services.ts';

export interface RegisteredRoute {
  method: string;
  /** In the interface's style: `{param}` instead of Fastify's `:param`. */
  path: string;
  auth: RouteAuth;
  /** The declared success answer (status, schema): what test/e2e/two-factor-gate.test.ts walks for session tokens. */
  success?: unknown;
}

export interface BuiltApp {
  app: App;
  services: Services;
  /** Every route the app serves (HEAD twins of GET left out), in registration order. */
  routes: RegisteredRoute[];
}

export { toSpecPath };

/**
 * TRUST_PROXY as Fastify takes it. A hop count N trusts the N nearest addresses of the chain (the
 * connection's peer, then X-Forwarded-For from its end): Fastify 5 refuses a bare number (it cannot
 * check that the peer is a proxy), but an operator who names a count says the service is only
 * reachable through that many proxies.
 */
function trustProxyOption(trust: Config['trustProxy']): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

export async function buildApp(
  deps: AppDeps,
  options: {
    logger?: FastifyServerOptions['logger'];
    loggerInstance?: FastifyBaseLogger;
    /** When routes' validators and serializers are compiled: at their first use (default), or at registration. */
    compileSchemas?: 'firstUse' | 'now';
    /** How filed mail leaves after its commit: the job queue (default) or at once in this process (tests). */
    mailDelivery?: MailDelivery;
  } = {},
): Promise<BuiltApp> {
  const { config } = deps;
  // A request's headers and body must arrive within REQUEST_TIMEOUT_SECONDS (408, then the connection
  // closes), its headers within 20 s of that; Node checks running requests every few seconds.
  const requestTimeout = config.requestTimeoutSeconds * 1000;
  const app = Fastify({
    ...(options.loggerInstance
      ? { loggerInstance: options.loggerInstance }
      : { logger: options.logger ?? { level: config.logLevel } }),
    // One line per request instead (access-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    trustProxy: trustProxyOption(config.trustProxy),
    routerOptions: { maxParamLength: 200 },
    frameworkErrors: sendFrameworkError,
    requestTimeout,
    http: {
      requestTimeout,
      headersTimeout: Math.min(requestTimeout, 20_000),
      connectionsCheckingInterval: Math.min(5_000, Math.max(100, requestTimeout / 4)),
    },
    clientErrorHandler: handleClientError,
  }).withTypeProvider() as unknown as App;
  const compileSchemas = options.compileSchemas ?? 'firstUse';
  app.setValidatorCompiler(validatorCompiler(compileSchemas));
  app.setSerializerCompiler(serializerCompiler({ check: config.checkAnswers, when: compileSchemas }));
  app.decorate('publicUrl', config.publicUrl);
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routes.push({
        method,
        path: toSpecPath(route.url),
        auth: route.config?.auth ?? 'none',
        success: route.config?.success,
      });
    }
  });

  const services = createServices(deps, app.log, { mailDelivery: options.mailDelivery });

  app.decorateRequest('locale', defaultLocale);
  // The platform's hooks that run on every request take Fastify's callback (no promise, no microtask
  // hop: a measurable share of a request as cheap as ping); those that may wait stay async.
  app.addHook('onRequest', (request, _reply, done) => {
    request.locale = negotiateLocale(request.headers['accept-language']);
    done();
  });
  // Before any route is added (CORS adds its preflight's): each route gets its own timing hook.
  registerHttpMetrics(app, services.platform.metrics);
  registerAccessLog(app);
  // Before anything that may refuse a request, so a refusal still reaches the allowed origin's script.
  await registerCors(app, config.corsOrigins);
  registerErrorHandling(app);
  registerMaintenance(app, services.platform.maintenance);
  registerContentTypes(app);
  registerFormBodies(app);
  registerSecurityHeaders(app);
  registerNulGuard(app);
  const { pageViewer } = registerAuth(app, {
    adminToken: config.adminApiToken,
    sessions: services.areas.accounts.sessions,
  });
  registerNotFound(app, pageViewer);
  // Public reads from the read replica, and read-your-writes (read-routing.ts); only with one.
  const replica = isPostgres(deps.database) ? deps.database.replica : null;
  if (replica !== null)
    registerReadRouting(app, replica, new RecentWriters(deps.broadcast, deps.clock, replica.maxLagMs));
  registerRateLimits(app, { enabled: config.rateLimits, store: deps.rateLimitStore, clock: deps.clock });
  await registerOpenApi(app, config.publicUrl);
  registerHealth(app, services.platform.readiness);

  // Each area registers its own routes with its own services (src/areas/areas.ts lists them).
  for (const module of areaModules) {
    await module.routes?.(app, services.areas[module.name as keyof typeof services.areas], services.platform);
  }

  return { app, services, routes };
}
