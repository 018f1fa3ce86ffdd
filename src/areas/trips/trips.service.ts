/**
 * Trips: the recomputation of a user's trips from their placed photos (the rule: trip-grouping.ts),
 * the owner's edits, and the reads as a viewer sees them (docs/api.md, Trips).
 */
import type { Clock } from '../../platform/clock.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import { newId } from '../../platform/ids/ids.ts';
import { nameBasedUuid } from '../../platform/ids/name-based-uuid.ts';
import { settingsOf, type UsersService } from '../accounts/public.ts';
import type { Position } from './geodesy.ts';
import { type RouteGeometry, routeGeometry } from './route-geometry.ts';
import type { TripRow } from './tables.ts';
import { byTime, groupTrips, mostPhotographedCity } from './trip-grouping.ts';
import { tripTitle } from './trip-title.ts';
import { type TripView, tripView } from './trip-view.ts';
import type { OwnPlacedPhoto, TripPhotoSeen, TripsRepository } from './trips.repository.ts';

/** The namespace of automatic trips' ids: v5 of the owner and the first photo, stable across recomputations. */
const tripIdNamespace = '6f1d2c1e-59a5-4d7e-9a43-0b6f5f0f7a11';

/** What the owner may change of a trip in one request (PATCH /api/users/me/trips/{id}). */
export type TripEdit =
  | { kind: 'fields'; title?: string | null; hidden?: boolean }
  | { kind: 'split'; atPhotoId: string }
  | { kind: 'merge'; otherTripId: string };

export const tripTitleMaxLength = 120;

export interface TripsServiceDeps {
  transactions: Transactions;
  repository: TripsRepository;
  users: UsersService;
  clock: Clock;
}

export class TripsService {
  readonly #deps: TripsServiceDeps;

  constructor(deps: TripsServiceDeps) {
    this.#deps = deps;
  }

  // ---- Recomputation -------------------------------------------------------------------------

  /** Files the owner for a recomputation, in the transaction of the change to their photos. */
  queue(userId: string): Promise<void> {
    return this.#deps.repository.queue(userId, this.#deps.clock.now());
  }

  /**
   * Recomputes the user's automatic trips, under their lock (one recomputation of a user at a time):
   * frozen trips keep their photos (less those gone), the other photos are grouped by the rule.
   */
  recompute(userId: string): Promise<{ trips: number }> {
    const { transactions, repository, users, clock } = this.#deps;
    return transactions.run(async () => {
      const user = await users.lock(userId);
      if (user === null) {
        await repository.eraseUser(userId);
        return { trips: 0 };
      }
      const now = clock.now();
      // Taken off the queue before the photos are read: a change committed after this has a row of its own.
      await repository.dequeue(userId);
      const photos = await repository.placedPhotos(userId);
      const byId = new Map(photos.map((photo) => [photo.id, photo]));
      const inFrozen = new Set<string>();
      let count = 0;
      for (const { trip, photoIds } of await repository.frozenTrips(userId)) {
        const kept = photoIds.flatMap((id) => byId.get(id) ?? []).sort(byTime);
        if (kept.length === 0) {
          await repository.deleteTrip(trip.id);
          continue;
        }
        for (const photo of kept) inFrozen.add(photo.id);
        await repository.writeTrip(userId, { id: trip.id, photos: kept }, {}, now);
        count += 1;
      }
      await repository.deleteAutomaticTrips(userId);
      const home = await this.#home(userId, settingsOf(user.settings).birthCityId, photos);
      const free = photos.filter((photo) => !inFrozen.has(photo.id));
      for (const group of groupTrips(free, home)) {
        const [first] = group;
        if (first === undefined) continue;
        await repository.writeTrip(
          userId,
          { id: nameBasedUuid(5, `${userId}/${first.id}`, tripIdNamespace), photos: group },
          {},
          now,
        );
        count += 1;
      }
      return { trips: count };
    });
  }

  /** The job's work: every user still queued (a recomputation after a commit that failed or never ran). */
  async recomputeQueued(limit = 500): Promise<{ recomputed: number }> {
    const users = await this.#deps.repository.queued(limit);
    for (const userId of users) await this.recompute(userId);
    return { recomputed: users.length };
  }

  /** Home: the position the user set, else their birth city, else the city most of their photos are in. */
  async #home(userId: string, birthCityId: string | null, photos: OwnPlacedPhoto[]): Promise<Position | null> {
    const { repository } = this.#deps;
    const set = await repository.home(userId);
    if (set !== null) return set;
    const cityId = birthCityId ?? mostPhotographedCity(photos);
    return cityId === null ? null : repository.cityPosition(cityId);
  }

  // ---- Reads ---------------------------------------------------------------------------------

  /** A user's trips as the viewer sees them; 404 for a user hidden from the viewer. */
  async list(
    userId: string,
    viewerId: string | null,
    page: PageRequest,
  ): Promise<{ rows: TripRow[]; views: Map<string, TripView> }> {
    const user = await this.#deps.users.findVisibleTo(userId, viewerId);
    if (user === null) throw new AppError('notFound', { source: { parameter: 'userId' } });
    const rows = await this.#deps.repository.list(user.id, viewerId, page);
    const views = await this.#views(rows, viewerId);
    // The statement keeps only trips with a photo the viewer sees; the row past the page (limit + 1)
    // only tells that a next page exists, so it stays whatever its view.
    return { rows: rows.filter((row, index) => views.has(row.id) || index === page.limit), views };
  }

  /**
   * The trip as the viewer sees it, or null: unknown, hidden (to others than the owner), of an owner
   * hidden from the viewer, or none of its photos visible to them. The read share links, feeds and
   * embeds call.
   */
  async findVisible(viewerId: string | null, tripId: string): Promise<TripView | null> {
    const trip = await this.#deps.repository.trip(tripId);
    if (trip === null) return null;
    if (trip.ownerId !== viewerId) {
      if (trip.hidden) return null;
      if ((await this.#deps.users.findVisibleTo(trip.ownerId, viewerId)) === null) return null;
    }
    return (await this.#views([trip], viewerId)).get(trip.id) ?? null;
  }

  /** findVisible, or 404. */
  async get(viewerId: string | null, tripId: string): Promise<TripView> {
    const view = await this.findVisible(viewerId, tripId);
    if (view === null) throw new AppError('notFound', { source: { parameter: 'tripId' } });
    return view;
  }

  /** The trip's photos the viewer may see, in time order (empty when the trip is not visible). */
  async photosOf(viewerId: string | null, tripId: string): Promise<TripPhotoSeen[]> {
    return (await this.findVisible(viewerId, tripId))?.photos ?? [];
  }

  /** The trip's title in a locale: the owner's, else its cities and dates. */
  titleOf(view: TripView, locale: Locale): string {
    return tripTitle(view, locale);
  }

  /** The route's GeoJSON geometry as the viewer may see it, or null for a trip they may not see. */
  async routeOf(
    viewerId: string | null,
    tripId: string,
  ): Promise<{ view: TripView; geometry: RouteGeometry | null } | null> {
    const view = await this.findVisible(viewerId, tripId);
    return view === null ? null : { view, geometry: routeGeometry(view.route) };
  }

  async #views(rows: TripRow[], viewerId: string | null): Promise<Map<string, TripView>> {
    const photos = await this.#deps.repository.photosSeen(
      rows.map((row) => row.id),
      viewerId,
    );
    const byTrip = new Map<string, TripPhotoSeen[]>();
    for (const photo of photos) byTrip.set(photo.tripId, [...(byTrip.get(photo.tripId) ?? []), photo]);
    const views = new Map<string, TripView>();
    for (const row of rows) {
      const view = tripView(row, byTrip.get(row.id) ?? [], viewerId);
      if (view !== null) views.set(row.id, view);
    }
    return views;
  }

  // ---- The owner's edits ---------------------------------------------------------------------

  /**
   * Renames, hides or shows, splits or merges one of the owner's trips; every edit freezes the trips
   * it touches. 404 for a trip not theirs; 422 for a split outside the trip or a merge with a trip
   * not theirs, nothing changed.
   */
  async edit(ownerId: string, tripId: string, edit: TripEdit): Promise<{ view: TripView; newTripId: string | null }> {
    const { transactions, repository, users, clock } = this.#deps;
    const newTripId = await transactions.run(async () => {
      await users.lock(ownerId);
      const trip = await repository.ownTripForUpdate(ownerId, tripId);
      if (trip === null) throw new AppError('notFound', { source: { parameter: 'tripId' } });
      const now = clock.now();
      if (edit.kind === 'fields') {
        await repository.updateTrip(
          trip.id,
          {
            frozen: true,
            ...(edit.title === undefined ? {} : { customTitle: edit.title }),
            ...(edit.hidden === undefined ? {} : { hidden: edit.hidden }),
          },
          now,
        );
        return null;
      }
      const photos = await repository.photoIdsOf(trip.id);
      if (edit.kind === 'split') {
        const at = photos.findIndex((photo) => photo.id === edit.atPhotoId);
        if (at <= 0) {
          throw new AppError('validationFailed', {
            source: { pointer: '/splitAt' },
            detail: at === 0 ? 'a trip cannot be split at its first photo' : 'the photo is not in this trip',
          });
        }
        const created = newId();
        await repository.writeTrip(
          ownerId,
          { id: created, photos: photos.slice(at) },
          { frozen: true, hidden: trip.hidden },
          now,
        );
        await repository.writeTrip(ownerId, { id: trip.id, photos: photos.slice(0, at) }, { frozen: true }, now);
        return created;
      }
      const other = edit.otherTripId === trip.id ? null : await repository.ownTripForUpdate(ownerId, edit.otherTripId);
      if (other === null) {
        throw new AppError('validationFailed', {
          source: { pointer: '/mergeWith' },
          detail: 'merge with another of your trips',
        });
      }
      const merged = [...photos, ...(await repository.photoIdsOf(other.id))].sort(byTime);
      await repository.writeTrip(ownerId, { id: trip.id, photos: merged }, { frozen: true }, now);
      await repository.deleteTrip(other.id);
      return null;
    });
    return { view: await this.get(ownerId, tripId), newTripId };
  }

  /** DELETE: hides the grouping (never the photos); PATCH hidden false shows it again. Idempotent. */
  async hide(ownerId: string, tripId: string): Promise<void> {
    await this.edit(ownerId, tripId, { kind: 'fields', hidden: true });
  }

  // ---- Home ----------------------------------------------------------------------------------

  home(userId: string): Promise<Position | null> {
    return this.#deps.repository.home(userId);
  }

  /** Sets the home position, and recomputes the trips at once. */
  async setHome(userId: string, position: Position): Promise<Position> {
    return this.#deps.transactions.run(async () => {
      await this.#deps.users.lock(userId);
      const saved = await this.#deps.repository.setHome({ userId, ...position, updatedAt: this.#deps.clock.now() });
      await this.recompute(userId);
      return { latitude: saved.latitude, longitude: saved.longitude };
    });
  }

  /** Clears the home position (404 when none was set), and recomputes the trips at once. */
  async clearHome(userId: string): Promise<void> {
    await this.#deps.transactions.run(async () => {
      await this.#deps.users.lock(userId);
      if (!(await this.#deps.repository.clearHome(userId)))
        throw new AppError('notFound', { detail: 'no home position is set' });
      await this.recompute(userId);
    });
  }
}
