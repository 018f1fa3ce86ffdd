/**
 * While maintenance mode is on, every request it closes (see maintenance-paths.ts) answers 503
 * `maintenance` with `Retry-After`, before authentication and rate limits: a JSON:API error with the
 * title in the negotiated locale and the operator's message as its detail, or the HTML error page
 * when the client asks for HTML.
 */
import { AppError } from '../http/error-catalogue.ts';
import type { App } from '../http/types.ts';
import type { MaintenanceMode, MaintenanceSettings } from './maintenance-mode.ts';
import { closedDuringMaintenance } from './maintenance-paths.ts';

export function registerMaintenance(app: App, maintenance: MaintenanceMode) {
  maintenance.watch();
  app.addHook('onClose', async () => maintenance.unwatch());
  const refuse = (state: MaintenanceSettings) =>
    new AppError('maintenance', {
      headers: { 'Retry-After': String(state.retryAfterSeconds) },
      ...(state.message !== null ? { detail: state.message } : {}),
      meta: { retryAfterSeconds: state.retryAfterSeconds },
    });
  // A callback hook (see app.ts): once the state has been read, no promise is made for a request.
  app.addHook('onRequest', (request, _reply, done) => {
    // The state first: while it is known to be off (almost always), the path need not be cut out.
    const known = maintenance.known();
    if (known !== null && !known.enabled) return done();
    if (!closedDuringMaintenance(request.url.split('?')[0] ?? '')) return done();
    if (known !== null) return done(refuse(known));
    maintenance.current().then(
      (state) => done(state.enabled ? refuse(state) : undefined),
      (error: Error) => done(error),
    );
  });
}
