/**
 * A server bundles the client assets in the background once its job queue has started: early, so the
 * first visitor does not wait, but not while the server starts (esbuild's spawn and its work on the
 * second core delayed the first answers and the readiness; docs/benchmarks.md, Start-up). A page asked
 * for before that bundles them itself (loadClientAssets, shared).
 */

import type { App } from '../../../platform/http/types.ts';
import type { JobRunner } from '../../../platform/jobs/jobs.ts';
import { loadClientAssets } from './client-assets.ts';

/** Tests, which inject without listening or starting the queue, bundle on first use. */
export function bundleAssetsAfterStart(app: App, jobs: JobRunner): void {
  app.addHook('onListen', async () => {
    jobs
      .whenStarted()
      .then(loadClientAssets)
      .catch((error: unknown) => {
        app.log.error({ event: 'web.assetsFailed', err: error }, 'could not bundle the web pages’ client assets');
      });
  });
}
