/**
 * Made-up itineraries with the trips the rule (docs/api.md, Trips) must find in them, written before
 * the code: the grouping's unit test and the API's test both read them.
 */

export interface ItineraryPhoto {
  /** A name the expected trips refer to. */
  name: string;
  latitude: number | null;
  longitude: number | null;
  /** UTC. */
  takenAt: string;
}

export interface Itinerary {
  title: string;
  home: { latitude: number; longitude: number };
  photos: ItineraryPhoto[];
  /** Each expected trip: its photos' names, in time order; trips oldest first. */
  trips: string[][];
  /** Each expected trip's countries, in order of first visit. */
  countries?: string[][];
}

export const places = {
  paris: { latitude: 48.8566, longitude: 2.3522 },
  versailles: { latitude: 48.8049, longitude: 2.1204 },
  lyon: { latitude: 45.764, longitude: 4.8357 },
  rome: { latitude: 41.9028, longitude: 12.4964 },
  vienna: { latitude: 48.2082, longitude: 16.3738 },
  prague: { latitude: 50.0755, longitude: 14.4378 },
  auckland: { latitude: -36.8485, longitude: 174.7633 },
  suva: { latitude: -18.1416, longitude: 178.4419 },
  nadi: { latitude: -17.7765, longitude: 177.435 },
  apia: { latitude: -13.8333, longitude: -171.7667 },
} as const;

const at = (place: keyof typeof places, name: string, takenAt: string): ItineraryPhoto => ({
  name,
  ...places[place],
  takenAt,
});

export const itineraries: Itinerary[] = [
  {
    title: 'a weekend in Lyon, home in Paris',
    home: places.paris,
    photos: [
      at('paris', 'home-before', '2026-03-10T18:00:00Z'),
      at('lyon', 'lyon-1', '2026-03-14T10:00:00Z'),
      at('lyon', 'lyon-2', '2026-03-14T16:00:00Z'),
      at('lyon', 'lyon-3', '2026-03-15T11:00:00Z'),
      at('paris', 'home-after', '2026-03-16T08:00:00Z'),
    ],
    trips: [['lyon-1', 'lyon-2', 'lyon-3']],
    countries: [['FR']],
  },
  {
    title: 'two weekends in Lyon a week apart are two trips',
    home: places.paris,
    photos: [
      at('lyon', 'first-1', '2026-04-04T10:00:00Z'),
      at('lyon', 'first-2', '2026-04-05T10:00:00Z'),
      at('paris', 'week', '2026-04-08T10:00:00Z'),
      at('lyon', 'second-1', '2026-04-11T10:00:00Z'),
    ],
    trips: [['first-1', 'first-2'], ['second-1']],
  },
  {
    title: 'three countries in two weeks, with a quiet day',
    home: places.paris,
    photos: [
      at('rome', 'rome-1', '2026-05-01T09:00:00Z'),
      at('rome', 'rome-2', '2026-05-02T09:00:00Z'),
      at('rome', 'rome-3', '2026-05-04T08:00:00Z'),
      at('vienna', 'vienna-1', '2026-05-05T12:00:00Z'),
      at('vienna', 'vienna-2', '2026-05-08T10:00:00Z'),
      at('prague', 'prague-1', '2026-05-10T10:00:00Z'),
      at('prague', 'prague-2', '2026-05-14T09:00:00Z'),
      at('paris', 'home-again', '2026-05-15T20:00:00Z'),
    ],
    trips: [['rome-1', 'rome-2', 'rome-3', 'vienna-1', 'vienna-2', 'prague-1', 'prague-2']],
    countries: [['IT', 'AT', 'CZ']],
  },
  {
    title: 'a commuter who never leaves',
    home: places.paris,
    photos: [
      at('paris', 'monday', '2026-06-01T08:00:00Z'),
      at('versailles', 'office-1', '2026-06-01T12:00:00Z'),
      at('versailles', 'office-2', '2026-06-02T12:00:00Z'),
      at('paris', 'evening', '2026-06-02T19:00:00Z'),
      at('versailles', 'office-3', '2026-06-08T12:00:00Z'),
    ],
    trips: [],
  },
  {
    title: 'photos without positions are ignored',
    home: places.paris,
    photos: [
      { name: 'unplaced-1', latitude: null, longitude: null, takenAt: '2026-07-01T10:00:00Z' },
      at('lyon', 'lyon', '2026-07-02T10:00:00Z'),
      { name: 'unplaced-2', latitude: null, longitude: null, takenAt: '2026-07-02T12:00:00Z' },
    ],
    trips: [['lyon']],
  },
  {
    title: 'Fiji to Samoa, across the antimeridian, home in Auckland',
    home: places.auckland,
    photos: [
      at('nadi', 'nadi', '2026-08-01T02:00:00Z'),
      at('suva', 'suva', '2026-08-02T02:00:00Z'),
      at('apia', 'apia-1', '2026-08-03T02:00:00Z'),
      at('apia', 'apia-2', '2026-08-04T02:00:00Z'),
    ],
    trips: [['nadi', 'suva', 'apia-1', 'apia-2']],
    countries: [['FJ', 'WS']],
  },
];
