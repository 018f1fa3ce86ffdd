/// <reference lib="dom" />
/**
 * The explorer's script (bundled by esbuild with Leaflet, served from /assets): draws the base layer
 * (Natural Earth country shapes served by the site, or MAP_TILE_URL's tiles), loads
 * GET /api/media/in-bounds for the view whenever the map stops moving (debounced; an older request is
 * aborted), draws clusters as counts and photos as thumbnails, and opens a photo in the panel with
 * the fragment of GET /explorer/photos/{id}. Its strings come from the page (data-messages).
 */
import L from 'leaflet';
import { drawBaseLayer } from './map-base.ts';

interface Messages {
  loading: string;
  loadFailed: string;
  countZero: string;
  countOne: string;
  countOther: string;
  clusterOne: string;
  clusterOther: string;
  photoFallback: string;
  shapes: string;
}

interface Position {
  latitude: number;
  longitude: number;
}

interface MediaResource {
  type: 'media';
  id: string;
  attributes: {
    hex: string;
    description: string | null;
    position: Position | null;
    urls: { thumb: string };
    /** Marked sensitive: its thumbnail is blurred unless the viewer turned blurring off (data-blur-sensitive). */
    sensitive: boolean;
  };
}

/** A media the map can place. */
type PlacedMedia = MediaResource & { attributes: { position: Position } };
const isPlaced = (media: MediaResource): media is PlacedMedia => media.attributes.position !== null;

/** Markers drawn as one: never empty. */
type Group<T> = [T, ...T[]];

interface ClusterResource {
  type: 'mapClusters';
  id: string;
  attributes: {
    count: number;
    position: Position;
    bounds: { south: number; west: number; north: number; east: number };
    thumbnail: string | null;
  };
  relationships: { representative: { data: { id: string } | null } };
  /** Drawn here from photos all at one spot (not from the API). */
  identical?: boolean;
}

interface InBoundsAnswer {
  data: Array<MediaResource | ClusterResource>;
  meta: { mode: 'media' | 'clusters'; zoom: number };
}

const root = document.getElementById('explorer');
const mapElement = document.getElementById('map');
if (root !== null && mapElement !== null) start(root, mapElement);

function start(root: HTMLElement, mapElement: HTMLElement): void {
  const data = root.dataset;
  const messages = JSON.parse(data.messages ?? '{}') as Messages;
  const locale = data.locale ?? 'en-US';
  const blurSensitive = data.blurSensitive !== 'false';
  const status = document.getElementById('map-status');
  const panel = document.getElementById('photo-panel');
  const panelContent = document.getElementById('photo-panel-content');
  const plural = new Intl.PluralRules(locale);
  const numbers = new Intl.NumberFormat(locale);

  const counted = (count: number, one: string, other: string, zero = other) =>
    (count === 0 ? zero : plural.select(count) === 'one' ? one : other).replace('{count}', numbers.format(count));
  const say = (text: string) => {
    if (status) status.textContent = text;
  };

  const initial = viewFromHash() ?? { lat: 25, lng: 10, zoom: 2 };
  const map = L.map(mapElement, {
    center: [initial.lat, initial.lng],
    zoom: initial.zoom,
    minZoom: 1,
    maxZoom: 18,
    worldCopyJump: true,
    maxBounds: [
      [-90, -Infinity],
      [90, Infinity],
    ],
    maxBoundsViscosity: 1,
    preferCanvas: true,
  });
  // The keyboard reaches the map itself (arrows, +, -) as well as its markers.
  mapElement.tabIndex = 0;

  drawBaseLayer(map, data, messages.shapes);

  const markers = L.layerGroup().addTo(map);
  let pending: AbortController | null = null;
  let timer: number | undefined;

  async function load(): Promise<void> {
    pending?.abort();
    const controller = new AbortController();
    pending = controller;
    const query = boxQuery(map);
    say(messages.loading);
    try {
      const response = await fetch(`${data.inBounds}?${query}`, {
        headers: { Accept: 'application/vnd.api+json', 'Accept-Language': locale },
        signal: controller.signal,
      });
      if (!response.ok) throw new Error(`in-bounds answered ${response.status}`);
      const answer = (await response.json()) as InBoundsAnswer;
      if (controller.signal.aborted) return;
      draw(answer);
    } catch (error) {
      if (controller.signal.aborted) return;
      say(messages.loadFailed);
      console.warn(error);
    }
  }

  function draw(answer: InBoundsAnswer): void {
    markers.clearLayers();
    let total = 0;
    const photos: PlacedMedia[] = [];
    const clusters: ClusterResource[] = [];
    for (const resource of answer.data) {
      if (resource.type === 'mapClusters') {
        total += resource.attributes.count;
        clusters.push(resource);
      } else if (isPlaced(resource)) {
        total += 1;
        photos.push(resource);
      }
    }
    for (const group of groupOnScreen(clusters, (cluster) => cluster.attributes.position)) {
      markers.addLayer(clusterMarker(group.length === 1 ? group[0] : mergedCluster(group)));
    }
    for (const group of groupOnScreen(photos, (photo) => photo.attributes.position)) {
      markers.addLayer(group.length === 1 ? photoMarker(group[0]) : clusterMarker(localCluster(group)));
    }
    root.dataset.mode = answer.meta.mode;
    root.dataset.loaded = String(total);
    say(counted(total, messages.countOne, messages.countOther, messages.countZero));
  }

  /** Markers that would cover each other on screen (the same cell of a 56 px grid) go together. */
  function groupOnScreen<T>(items: T[], positionOf: (item: T) => Position): Group<T>[] {
    const cells = new Map<string, Group<T>>();
    for (const item of items) {
      const { latitude, longitude } = positionOf(item);
      const point = map.latLngToLayerPoint([latitude, longitude]);
      const key = `${Math.floor(point.x / 56)}:${Math.floor(point.y / 56)}`;
      const cell = cells.get(key);
      if (cell) cell.push(item);
      else cells.set(key, [item]);
    }
    return [...cells.values()];
  }

  /** Neighbouring clusters of the API drawn as one: their total, weighted middle and joint extent. */
  function mergedCluster(group: ClusterResource[]): ClusterResource {
    const count = group.reduce((sum, cluster) => sum + cluster.attributes.count, 0);
    const mean = (read: (cluster: ClusterResource) => number) =>
      group.reduce((sum, cluster) => sum + read(cluster) * cluster.attributes.count, 0) / count;
    const largest = group.reduce((best, cluster) =>
      cluster.attributes.count > best.attributes.count ? cluster : best,
    );
    return {
      type: 'mapClusters',
      id: group.map((cluster) => cluster.id).join('+'),
      attributes: {
        count,
        position: {
          latitude: mean((cluster) => cluster.attributes.position.latitude),
          longitude: mean((cluster) => cluster.attributes.position.longitude),
        },
        bounds: {
          south: Math.min(...group.map((cluster) => cluster.attributes.bounds.south)),
          west: Math.min(...group.map((cluster) => cluster.attributes.bounds.west)),
          north: Math.max(...group.map((cluster) => cluster.attributes.bounds.north)),
          east: Math.max(...group.map((cluster) => cluster.attributes.bounds.east)),
        },
        thumbnail: largest.attributes.thumbnail,
      },
      relationships: largest.relationships,
    };
  }

  /** A group of photos drawn as a cluster: its count, its middle, its extent, its first photo. */
  function localCluster(group: Group<PlacedMedia>): ClusterResource {
    const latitudes = group.map((photo) => photo.attributes.position.latitude);
    const longitudes = group.map((photo) => photo.attributes.position.longitude);
    const bounds = {
      south: Math.min(...latitudes),
      west: Math.min(...longitudes),
      north: Math.max(...latitudes),
      east: Math.max(...longitudes),
    };
    const identical = bounds.south === bounds.north && bounds.west === bounds.east;
    return {
      type: 'mapClusters',
      id: `local:${group[0].id}`,
      attributes: {
        count: group.length,
        position: { latitude: (bounds.south + bounds.north) / 2, longitude: (bounds.west + bounds.east) / 2 },
        bounds,
        thumbnail: null,
      },
      // Photos at one same spot cannot be told apart by zooming: the cluster opens the first one.
      relationships: { representative: { data: { id: group[0].attributes.hex } } },
      identical,
    };
  }

  function clusterMarker(cluster: ClusterResource): L.Marker {
    const { count, position, bounds } = cluster.attributes;
    const size = Math.round(Math.min(64, 30 + Math.log10(Math.max(count, 1)) * 12));
    const element = document.createElement('span');
    element.className = 'cluster__count';
    element.textContent = numbers.format(count);
    const label = counted(count, messages.clusterOne, messages.clusterOther);
    const marker = L.marker([position.latitude, position.longitude], {
      icon: L.divIcon({ className: 'cluster', html: element, iconSize: [size, size] }),
      title: label,
      alt: label,
      keyboard: true,
      riseOnHover: true,
    });
    const representative = cluster.relationships.representative.data;
    marker.on('click', () => {
      // A cluster zooms in; only where zooming cannot part its photos does it open one.
      const atMost = map.getZoom() >= map.getMaxZoom() || cluster.identical === true;
      if (atMost && representative !== null) openPhoto(representative.id);
      else
        map.fitBounds(
          [
            [bounds.south, bounds.west],
            [bounds.north, bounds.east],
          ],
          { maxZoom: Math.min(map.getZoom() + 3, map.getMaxZoom()) },
        );
    });
    marker.on('add', () => {
      const icon = marker.getElement();
      icon?.setAttribute('role', 'button');
      icon?.setAttribute('aria-label', label);
    });
    return marker;
  }

  function photoMarker(media: PlacedMedia): L.Marker {
    const { position, description, urls } = media.attributes;
    const image = document.createElement('img');
    image.src = urls.thumb;
    image.alt = '';
    image.loading = 'lazy';
    image.decoding = 'async';
    const label = description ?? messages.photoFallback;
    const marker = L.marker([position.latitude, position.longitude], {
      icon: L.divIcon({
        className:
          media.attributes.sensitive && blurSensitive ? 'photo-marker photo-marker--sensitive' : 'photo-marker',
        html: image,
        iconSize: [44, 44],
      }),
      title: label,
      alt: label,
      keyboard: true,
      riseOnHover: true,
    });
    marker.on('click', () => openPhoto(media.attributes.hex));
    marker.on('add', () => {
      const icon = marker.getElement();
      icon?.setAttribute('role', 'button');
      icon?.setAttribute('aria-label', label);
      if (icon) icon.dataset.media = media.attributes.hex;
    });
    return marker;
  }

  let opener: Element | null = null;
  async function openPhoto(id: string): Promise<void> {
    if (!panel || !panelContent) return;
    opener = document.activeElement;
    try {
      const response = await fetch(`${data.photo}${encodeURIComponent(id)}`, {
        headers: { Accept: 'text/html', 'Accept-Language': locale },
      });
      if (!response.ok) throw new Error(`photo answered ${response.status}`);
      // A fragment of our own server, rendered with every value escaped.
      panelContent.innerHTML = await response.text();
    } catch (error) {
      console.warn(error);
      say(messages.loadFailed);
      return;
    }
    const title = panelContent.querySelector('h2');
    if (title) {
      panel.setAttribute('aria-labelledby', title.id);
    }
    panel.hidden = false;
    panel.focus();
  }

  function closePhoto(): void {
    if (!panel || panel.hidden) return;
    panel.hidden = true;
    if (panelContent) panelContent.textContent = '';
    if (opener instanceof HTMLElement) opener.focus();
  }

  panel?.querySelector('.photo-panel__close')?.addEventListener('click', closePhoto);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') closePhoto();
  });

  // A view typed or pasted into the address (#zoom/lat/lng) moves the map there.
  window.addEventListener('hashchange', () => {
    const view = viewFromHash();
    if (view) map.setView([view.lat, view.lng], view.zoom);
  });
  map.on('moveend', () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => {
      rememberView(map);
      void load();
    }, 300);
  });
  void load();
}

/** The API's box for the view: longitudes wrapped into -180..180 (west > east crosses the antimeridian). */
function boxQuery(map: L.Map): string {
  const bounds = map.getBounds();
  const clampLat = (value: number) => Math.max(-90, Math.min(90, value));
  let west = bounds.getWest();
  let east = bounds.getEast();
  if (east - west >= 360) {
    west = -180;
    east = 180;
  } else {
    west = L.Util.wrapNum(west, [-180, 180], true);
    east = L.Util.wrapNum(east, [-180, 180], true);
  }
  const fixed = (value: number) => value.toFixed(5);
  const parameters = new URLSearchParams({
    south: fixed(clampLat(bounds.getSouth())),
    west: fixed(west),
    north: fixed(clampLat(bounds.getNorth())),
    east: fixed(east),
    zoom: String(Math.max(0, Math.min(22, Math.round(map.getZoom())))),
    limit: '200',
  });
  return parameters.toString();
}

/** The base layer: the tile server when configured, else the country shapes (finer ones from zoom 4). */
/** `#zoom/lat/lng` in the address: a view can be shared or reloaded. */
function viewFromHash(): { lat: number; lng: number; zoom: number } | null {
  const match = /^#(\d{1,2})\/(-?\d+(?:\.\d+)?)\/(-?\d+(?:\.\d+)?)$/.exec(window.location.hash);
  if (!match) return null;
  const [zoom, lat, lng] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (zoom > 18 || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return { lat, lng, zoom };
}

function rememberView(map: L.Map): void {
  const centre = map.getCenter().wrap();
  const hash = `#${map.getZoom()}/${centre.lat.toFixed(4)}/${centre.lng.toFixed(4)}`;
  window.history.replaceState(null, '', hash);
}
