/// <reference lib="dom" />
/**
 * The maps' base layer, shared by the explorer and the trip page: MAP_TILE_URL's tiles when the page
 * names them (data-tile-url), else the Natural Earth country shapes served by the site (data-world,
 * and data-world-fine from zoom 4), drawn offline.
 */
import L from 'leaflet';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/** Draws the base layer; `shapesCredit` is the country shapes' attribution, in the page's language. */
export function drawBaseLayer(map: L.Map, data: DOMStringMap, shapesCredit: string): void {
  if (data.tileUrl) {
    L.tileLayer(data.tileUrl, { attribution: escapeText(data.tileAttribution ?? ''), maxZoom: 19 }).addTo(map);
    return;
  }
  const renderer = L.canvas({ padding: 0.5 });
  const style = { renderer, color: '#8a9a8c', weight: 0.7, fillColor: '#f2efe6', fillOpacity: 1 };
  const layers = new Map<string, L.GeoJSON>();
  let shown: string | null = null;
  map.attributionControl.addAttribution(escapeText(shapesCredit));

  async function shapes(url: string): Promise<L.GeoJSON> {
    const known = layers.get(url);
    if (known) return known;
    const response = await fetch(url);
    const topology = (await response.json()) as Topology<{ countries: GeometryCollection }>;
    const countries = feature(topology, topology.objects.countries);
    for (const country of countries.features) unwrapLongitudes(country.geometry);
    const layer = L.geoJSON(countries, { style, interactive: false });
    layers.set(url, layer);
    return layer;
  }

  async function update(): Promise<void> {
    const wanted = map.getZoom() >= 4 && data.worldFine ? data.worldFine : data.world;
    if (!wanted || wanted === shown) return;
    shown = wanted;
    try {
      const layer = await shapes(wanted);
      if (shown !== wanted) return;
      for (const [url, other] of layers) if (url !== wanted) other.remove();
      layer.addTo(map);
      layer.bringToBack();
    } catch (error) {
      shown = null;
      console.warn(error);
    }
  }
  map.on('zoomend', () => void update());
  void update();
}

/**
 * Rings that cross the antimeridian (Russia's east, Fiji) jump from 180 to -180: drawn as they are,
 * they streak across the world. Each ring is made continuous instead (longitudes past 180 allowed).
 */
function unwrapLongitudes(geometry: GeoJSON.Geometry | null): void {
  if (geometry === null) return;
  const unwrapRing = (ring: number[][]) => {
    let previous: number | undefined;
    for (const point of ring) {
      let [longitude] = point;
      if (longitude === undefined) continue;
      if (previous !== undefined) {
        while (longitude - previous > 180) longitude -= 360;
        while (previous - longitude > 180) longitude += 360;
      }
      point[0] = longitude;
      previous = longitude;
    }
  };
  if (geometry.type === 'Polygon') geometry.coordinates.forEach(unwrapRing);
  else if (geometry.type === 'MultiPolygon') for (const polygon of geometry.coordinates) polygon.forEach(unwrapRing);
}

export function escapeText(text: string): string {
  const element = document.createElement('span');
  element.textContent = text;
  return element.innerHTML;
}
