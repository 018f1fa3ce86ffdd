import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { degreeBoxAround } from './degree-box.ts';

/** Great-circle metres between two points on earthdistance's sphere. */
function metresBetween(a: [number, number], b: [number, number]): number {
  const rad = Math.PI / 180;
  const [lat1, lng1] = [a[0] * rad, a[1] * rad];
  const [lat2, lng2] = [b[0] * rad, b[1] * rad];
  const h = Math.sin((lat2 - lat1) / 2) ** 2 + Math.cos(lat1) * Math.cos(lat2) * Math.sin((lng2 - lng1) / 2) ** 2;
  return 2 * 6_378_168 * Math.asin(Math.sqrt(h));
}

const inBox = (box: ReturnType<typeof degreeBoxAround>, [lat, lng]: [number, number]) =>
  lat >= box.southLatitude &&
  lat <= box.northLatitude &&
  ((lng >= box.west1 && lng <= box.east1) || (lng >= box.west2 && lng <= box.east2));

describe('degreeBoxAround', () => {
  it('holds every point within the distance, in every direction, wherever the centre is', () => {
    const centres: Array<[number, number]> = [
      [48.8566, 2.3522],
      [64.1466, -21.9426],
      [-18.14, 179.9],
      [-16.8, -179.95],
      [89.95, 10],
      [-89.99, -170],
      [0, 0],
    ];
    for (const centre of centres) {
      const box = degreeBoxAround(centre[0], centre[1], 25_000);
      for (let bearing = 0; bearing < 360; bearing += 15) {
        // A point just inside 25 km along this bearing, found by stepping outwards.
        const rad = (bearing * Math.PI) / 180;
        let step = 0;
        let point = centre;
        for (let k = 1; k <= 1000; k++) {
          const lat = centre[0] + k * 0.0003 * Math.cos(rad);
          let lng = centre[1] + (k * 0.0003 * Math.sin(rad)) / Math.max(0.01, Math.cos((centre[0] * Math.PI) / 180));
          if (lat > 90 || lat < -90) break;
          if (lng > 180) lng -= 360;
          if (lng < -180) lng += 360;
          if (metresBetween(centre, [lat, lng]) > 24_900) break;
          point = [lat, lng];
          step = k;
        }
        assert.ok(step > 0);
        assert.ok(inBox(box, point), `${point} is within 25 km of ${centre} and in its box`);
      }
    }
  });

  it('splits a box that passes the antimeridian into two longitude ranges, and takes every longitude at a pole', () => {
    const fiji = degreeBoxAround(-16.8, 179.95, 25_000);
    assert.equal(fiji.east1, 180);
    assert.equal(fiji.west2, -180);
    assert.ok(fiji.east2 > -180 && fiji.east2 < -179.5);
    const pole = degreeBoxAround(89.99, 0, 25_000);
    assert.deepEqual([pole.west1, pole.east1], [-180, 180]);
    const paris = degreeBoxAround(48.8566, 2.3522, 25_000);
    assert.deepEqual([paris.west1, paris.east1], [paris.west2, paris.east2]);
    assert.ok(paris.northLatitude - paris.southLatitude < 0.5);
  });
});
