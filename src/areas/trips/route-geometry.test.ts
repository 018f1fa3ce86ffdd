import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { places } from './itineraries.ts';
import { routeGeometry, simplified, unwrapped } from './route-geometry.ts';

describe('a trip route', () => {
  it('goes from Fiji to Samoa the short way, cut at the antimeridian as RFC 7946 asks', () => {
    const geometry = routeGeometry([places.nadi, places.suva, places.apia]);
    assert.equal(geometry?.type, 'MultiLineString');
    const parts = geometry!.coordinates as [number, number][][];
    assert.equal(parts.length, 2);
    const [west, east] = parts as [[number, number][], [number, number][]];
    assert.deepEqual(west[0], [places.nadi.longitude, places.nadi.latitude]);
    assert.equal(west.at(-1)![0], 180);
    assert.equal(east[0]![0], -180);
    assert.equal(west.at(-1)![1], east[0]![1]);
    assert.deepEqual(east.at(-1), [places.apia.longitude, places.apia.latitude]);
    // No leg spans more than a few degrees of longitude: nothing jumps across the world.
    for (const part of parts)
      for (let i = 1; i < part.length; i += 1) assert.ok(Math.abs(part[i]![0] - part[i - 1]![0]) < 10);
  });

  it('keeps longitudes continuous once unwrapped', () => {
    const line = unwrapped([places.suva, places.apia, places.suva]);
    assert.deepEqual(
      line.map(([lon]) => Math.round(lon)),
      [178, 188, 178],
    );
  });

  it('is a LineString when it does not cross, and a Point for one place', () => {
    assert.equal(routeGeometry([places.paris, places.lyon])?.type, 'LineString');
    assert.deepEqual(routeGeometry([places.lyon, places.lyon]), {
      type: 'Point',
      coordinates: [places.lyon.longitude, places.lyon.latitude],
    });
    assert.equal(routeGeometry([]), null);
  });

  it('drops points within the tolerance of a straight leg (Douglas–Peucker)', () => {
    const straight: [number, number][] = [
      [0, 0],
      [1, 0.0001],
      [2, -0.0001],
      [3, 0],
      [3, 1],
    ];
    assert.deepEqual(simplified(straight), [
      [0, 0],
      [3, 0],
      [3, 1],
    ]);
  });
});
