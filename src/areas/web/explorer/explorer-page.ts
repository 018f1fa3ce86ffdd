/**
 * The explorer's markup: the map's element and what its script (assets/client/explorer.ts) reads
 * from data attributes (the API it loads, the country shapes or the tile server, its strings in the
 * page's language), a live status line, and the photo panel (a dialog the script fills with
 * GET /explorer/photos/{id}).
 */
import { translate } from '../../../platform/i18n/i18n.ts';
import { assetUrl } from '../assets/client-assets.ts';
import { html, type Markup } from '../layout/html.ts';
import type { PageContext } from '../layout/page-context.ts';

export interface MapSettings {
  /** MAP_TILE_URL, or null for the offline map drawn from the country shapes. */
  tileUrl: string | null;
  tileAttribution: string | null;
}

/** The strings the script shows, rendered in the page's language (`{count}` is filled by the script). */
function clientMessages(context: PageContext): Record<string, string> {
  const t = (key: string) => translate(context.locale, key, { count: '{count}' });
  const keys = {
    loading: 'explorer.loading',
    loadFailed: 'explorer.loadFailed',
    countZero: 'explorer.count.zero',
    countOne: 'explorer.count.one',
    countOther: 'explorer.count.other',
    clusterOne: 'explorer.cluster.one',
    clusterOther: 'explorer.cluster.other',
    photoFallback: 'explorer.photoFallback',
    shapes: 'explorer.naturalEarth',
  };
  return Object.fromEntries(Object.entries(keys).map(([name, key]) => [name, t(key)]));
}

export function explorerPageBody(context: PageContext, map: MapSettings): Markup {
  const t = (key: string) => translate(context.locale, key);
  return html`<div
    id="explorer"
    class="explorer"
    data-locale=${context.locale}
    data-in-bounds="/api/media/in-bounds"
    data-photo="/explorer/photos/"
    data-world=${assetUrl('world-110m.json')}
    data-world-fine=${assetUrl('world-50m.json')}
    data-tile-url=${map.tileUrl ?? undefined}
    data-tile-attribution=${map.tileUrl ? (map.tileAttribution ?? '') : undefined}
    data-messages=${JSON.stringify(clientMessages(context))}
    data-blur-sensitive=${String(context.blurSensitiveMedia)}
  >
    <h1 class="visually-hidden">${t('explorer.heading')}</h1>
    <div id="map" role="region" aria-label=${t('explorer.mapLabel')}></div>
    <p id="map-status" class="explorer__status" role="status" aria-live="polite"></p>
    <div id="photo-panel" class="photo-panel" role="dialog" aria-modal="false" aria-label=${t('explorer.panel.label')} tabindex="-1" hidden>
      <button type="button" class="photo-panel__close" aria-label=${t('explorer.close')}>×</button>
      <div id="photo-panel-content"></div>
    </div>
    <noscript><p class="explorer__status">${t('explorer.needsScript')} <a href="/travel">${t('web.nav.travel')}</a></p></noscript>
  </div>`;
}
