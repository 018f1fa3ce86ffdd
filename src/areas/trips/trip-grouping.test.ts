import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { greatCircleMetres, routeMetres } from './geodesy.ts';
import { itineraries, places } from './itineraries.ts';
import { groupTrips, type PlacedPhoto } from './trip-grouping.ts';

describe('the trip rule on made-up itineraries', () => {
  for (const itinerary of itineraries) {
    it(itinerary.title, () => {
      const placed: PlacedPhoto[] = itinerary.photos
        .filter((photo) => photo.latitude !== null && photo.longitude !== null)
        .map((photo) => ({
          id: photo.name,
          latitude: photo.latitude!,
          longitude: photo.longitude!,
          time: new Date(photo.takenAt),
        }));
      const trips = groupTrips(placed, itinerary.home);
      assert.deepEqual(
        trips.map((trip) => trip.map((photo) => photo.id)),
        itinerary.trips,
      );
    });
  }

  it('finds no trip without a home', () => {
    const photo = { id: 'a', ...places.lyon, time: new Date('2026-01-01T00:00:00Z') };
    assert.deepEqual(groupTrips([photo], null), []);
  });
});

describe('distances across the antimeridian', () => {
  it('measures Suva to Apia the short way (about 1,150 km, not 39,000)', () => {
    const metres = greatCircleMetres(places.suva, places.apia);
    assert.ok(metres > 1_100_000 && metres < 1_200_000, `${metres}`);
  });

  it('adds the legs of a route', () => {
    const legs = greatCircleMetres(places.paris, places.lyon) + greatCircleMetres(places.lyon, places.rome);
    assert.equal(routeMetres([places.paris, places.lyon, places.rome]), legs);
    assert.ok(Math.abs(greatCircleMetres(places.paris, places.lyon) - 392_000) < 5_000);
  });
});
