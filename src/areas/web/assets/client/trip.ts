/// <reference lib="dom" />
/**
 * The trip page's map (bundled with Leaflet, served from /assets): the offline base layer, then the
 * route of GET /api/trips/{id}/route (GeoJSON: a LineString, a MultiLineString cut at the
 * antimeridian, or a Point) drawn as one continuous line, its longitudes unwrapped so that a trip from
 * Fiji to Samoa crosses the Pacific rather than the world; a dot at the start and a ring at the end.
 */
import L from 'leaflet';
import { drawBaseLayer } from './map-base.ts';

type LonLat = [number, number];
type RouteGeometry =
  | { type: 'Point'; coordinates: LonLat }
  | { type: 'LineString'; coordinates: LonLat[] }
  | { type: 'MultiLineString'; coordinates: LonLat[][] };

const element = document.getElementById('trip-map');
if (element !== null) void start(element);

async function start(element: HTMLElement): Promise<void> {
  const data = element.dataset;
  const map = L.map(element, { center: [20, 0], zoom: 2, minZoom: 1, maxZoom: 16, worldCopyJump: false });
  element.tabIndex = 0;
  drawBaseLayer(map, data, data.shapes ?? '');
  try {
    const response = await fetch(data.route ?? '', { headers: { Accept: 'application/geo+json' } });
    if (!response.ok) throw new Error(`route answered ${response.status}`);
    const feature = (await response.json()) as { geometry: RouteGeometry | null };
    const line = continuous(feature.geometry);
    const [first] = line;
    const last = line.at(-1);
    if (first === undefined || last === undefined) return;
    const latLngs = line.map(([lon, lat]) => L.latLng(lat, lon));
    if (line.length > 1) L.polyline(latLngs, { color: '#b4231a', weight: 4, opacity: 0.85 }).addTo(map);
    L.circleMarker(L.latLng(first[1], first[0]), {
      radius: 7,
      color: '#b4231a',
      fillColor: '#b4231a',
      fillOpacity: 1,
    }).addTo(map);
    L.circleMarker(L.latLng(last[1], last[0]), {
      radius: 7,
      color: '#b4231a',
      fillColor: '#ffffff',
      fillOpacity: 1,
    }).addTo(map);
    if (line.length > 1) map.fitBounds(L.latLngBounds(latLngs), { padding: [32, 32], maxZoom: 12 });
    else map.setView(latLngs[0] ?? [0, 0], 10);
    element.dataset.drawn = String(line.length);
  } catch (error) {
    const note = document.createElement('p');
    note.className = 'trip__map-error';
    note.textContent = data.loadFailed ?? '';
    element.after(note);
    console.warn(error);
  }
}

/** The route's points in order as one line, each longitude within 180° of the previous one. */
function continuous(geometry: RouteGeometry | null): LonLat[] {
  if (geometry === null) return [];
  const parts =
    geometry.type === 'Point'
      ? [[geometry.coordinates]]
      : geometry.type === 'LineString'
        ? [geometry.coordinates]
        : geometry.coordinates;
  const line: LonLat[] = [];
  for (const [lon, lat] of parts.flat()) {
    const previous = line.at(-1);
    const unwrapped = previous === undefined ? lon : lon + 360 * Math.round((previous[0] - lon) / 360);
    // The cut at ±180° repeats the crossing point on both sides: once is enough.
    if (previous !== undefined && previous[0] === unwrapped && previous[1] === lat) continue;
    line.push([unwrapped, lat]);
  }
  return line;
}
