/** A listening server bundles the client assets at once, in the background, so the first visitor does not wait. */
import type { App } from '../../../platform/http/types.ts';
import { loadClientAssets } from './client-assets.ts';

/** Tests, which inject without listening, bundle on first use. */
export function bundleAssetsOnListen(app: App): void {
  app.addHook('onListen', async () => {
    loadClientAssets().catch((error: unknown) => {
      app.log.error({ event: 'web.assetsFailed', err: error }, 'could not bundle the web pages’ client assets');
    });
  });
}
