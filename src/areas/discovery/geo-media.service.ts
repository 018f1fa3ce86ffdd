/**
 * The rules of the geographic media lists: where "around me" is (an explicit centre, else the viewer's
 * birth city), which country trends (an explicit one, else the birth city's), personalization through
 * the viewer's topics, and whether a map box shows media or clusters.
 */
import type { Clock } from '../../platform/clock.ts';
import { filteredPage } from '../../platform/db/filtered-page.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { AppError, AppErrors } from '../../platform/http/error-catalogue.ts';
import type { FilterResult, FiltersService } from '../filters/public.ts';
import { mediaFilterTextOf } from '../filters/read-model.ts';
import type { ListedMedia } from '../media/read-model.ts';
import {
  type Centre,
  type DistancedMedia,
  type GeoMediaRepository,
  type LikedMedia,
  recommendedKeyset,
} from './geo-media.repository.ts';
import type { MapCell, MapCellsRepository } from './map-cells.repository.ts';
import { type Box, precomputedZoom, zoomForBox } from './map-grid.ts';
import { type NearbyRepository, nearbyKeyset } from './nearby.repository.ts';
import { TrendingRankings } from './trending-rankings.ts';

/** What discovery reads of other areas about a viewer. */
export interface ViewerProfile {
  /** The viewer's birth city, if they chose one. */
  birthCity(userId: string): Promise<(Centre & { countryCode: string }) | null>;
  /** The hashtags of the viewer's topics (empty when they follow none). */
  topicHashtags(userId: string): Promise<string[]>;
  /**
   * The users whose media the viewer does not see (accounts' rule of who sees whom, in memory: a block
   * either way, the viewer's mutes); empty for no viewer. Read once per request.
   */
  hiddenFrom(viewerId: string | null): Promise<ReadonlySet<string>>;
}

/**
 * A listed media with the viewer's warnings; without `filtered` when the viewer (anonymous, or with no
 * warn filter in force) has none (filters.warn: no warn pass, no copy of the rows).
 */
export type Warned<T> = T & { filtered?: FilterResult[] };

export const nearbyDistance = { defaultMetres: 5_000, maxMetres: 100_000 } as const;
export const recommendedDistance = { defaultMetres: 25_000, maxMetres: 100_000 } as const;
export const trendingWindow = { defaultDays: 7, maxDays: 90 } as const;

export type MapAnswer =
  | { mode: 'media'; zoom: number; media: ListedMedia[] }
  | { mode: 'clusters'; zoom: number; cells: MapCell[] };

/**
 * A cluster is drawn at the mean position of its media when it holds at least this many (a blur of
 * several public positions); a smaller one at its representative's own public position, and not at
 * all once that media left public view. So a precomputed cell whose representative left behind the
 * writes' back (they replace it at once) never places a media that is no longer public.
 */
export const clusterBlurCount = 5;

export interface GeoMediaServiceDeps {
  media: GeoMediaRepository;
  nearby: NearbyRepository;
  cells: MapCellsRepository;
  viewers: ViewerProfile;
  /** The viewer's keyword filters (context feeds): what they hide is left out, what they warn about carries `filtered`. */
  filters: FiltersService;
  clock: Clock;
}

export class GeoMediaService {
  readonly #deps: GeoMediaServiceDeps;

  readonly #trendingRankings: TrendingRankings;

  constructor(deps: GeoMediaServiceDeps) {
    this.#deps = deps;
    this.#trendingRankings = new TrendingRankings(deps.media, deps.clock);
  }

  /** The trending rankings kept in memory, for the cache registry (POST /admin/cache/purge). */
  get trendingCache() {
    return this.#trendingRankings.cache;
  }

  /**
   * The lists below are planned once for everyone; a viewer's filters are said in each statement
   * (`hiddenBy`), their hidden users are taken out of the page read, which reads on until it is full
   * (filteredPage), so its cursors stay exact.
   */
  async nearby(viewerId: string | null, at: Centre, distanceMetres: number, page: PageRequest) {
    const hiddenBy = await this.#deps.filters.hiddenFor(viewerId, 'feeds');
    const read = (request: PageRequest) => this.#deps.nearby.nearby(at, distanceMetres, request, hiddenBy);
    const hidden = await this.#deps.viewers.hiddenFrom(viewerId);
    const rows =
      hidden.size === 0
        ? await read(page)
        : await filteredPage(page, nearbyKeyset, read, (row) => !hidden.has(row.ownerId));
    return this.#warned(viewerId, rows);
  }

  async recommended(
    viewerId: string | null,
    request: { latitude?: number; longitude?: number; distance: number; personalize: boolean },
    page: PageRequest,
  ): Promise<Warned<DistancedMedia>[]> {
    const at = await this.#centre(viewerId, request.latitude, request.longitude);
    const hashtags = await this.#hashtags(viewerId, request.personalize);
    const hiddenBy = await this.#deps.filters.hiddenFor(viewerId, 'feeds');
    const read = (next: PageRequest) => this.#deps.media.recommended(at, request.distance, hashtags, next, hiddenBy);
    const hidden = await this.#deps.viewers.hiddenFrom(viewerId);
    const rows =
      hidden.size === 0
        ? await read(page)
        : await filteredPage(page, recommendedKeyset, read, (row) => !hidden.has(row.ownerId));
    return this.#warned(viewerId, rows);
  }

  async trending(
    viewerId: string | null,
    request: { country?: string; windowDays: number; personalize: boolean },
    page: PageRequest,
  ): Promise<{ country: string; rows: Warned<LikedMedia>[] }> {
    const country = request.country ?? (await this.#birthCity(viewerId))?.countryCode;
    if (country === undefined) {
      throw new AppError('validationFailed', {
        source: { parameter: 'country' },
        detail: 'country is required without a signed-in viewer who chose a birth city',
      });
    }
    const since = new Date(this.#deps.clock.now().getTime() - request.windowDays * 86_400_000);
    const hashtags = await this.#hashtags(viewerId, request.personalize);
    const query = { country, since, windowDays: request.windowDays, hashtags };
    const hiddenBy = await this.#deps.filters.hiddenFor(viewerId, 'feeds');
    const hidden = await this.#deps.viewers.hiddenFrom(viewerId);
    return {
      country,
      rows: await this.#warned(viewerId, await this.#trendingRankings.page(query, page, { hidden, hiddenBy })),
    };
  }

  #warned<T extends ListedMedia>(viewerId: string | null, rows: T[]): Promise<Warned<T>[]> {
    return this.#deps.filters.warn(viewerId, 'feeds', rows, mediaFilterTextOf);
  }

  /**
   * Media when the box holds at most `limit` of them, else the clusters of the box's zoom. The zoom is
   * at most one above the box's own (zoomForBox), so an answer holds at most about 16 × 16 cells
   * whatever the client asks: a world box at zoom 22 is not a million clusters.
   */
  async inBox(box: Box, zoom: number | undefined, limit: number, viewerId: string | null = null): Promise<MapAnswer> {
    const hidden = await this.#deps.viewers.hiddenFrom(viewerId);
    const answer = await this.#inBox(box, zoom, limit);
    return hidden.size === 0 ? answer : this.#withoutHidden(answer, hidden);
  }

  /**
   * A map answer without what the viewer's hidden users own: their media leave the media mode; a
   * cluster keeps its count (a number shows nobody, and the cells are counted for everyone) but not a
   * representative of theirs, so it is drawn at its blurred mean position, or not at all when too small.
   */
  async #withoutHidden(answer: MapAnswer, hidden: ReadonlySet<string>): Promise<MapAnswer> {
    if (answer.mode === 'media') return { ...answer, media: answer.media.filter((row) => !hidden.has(row.ownerId)) };
    const owners = new Map(
      (
        await this.#deps.media.listedAmong(
          answer.cells.map((cell) => cell.representativeId),
          [],
        )
      ).map((row) => [row.id, row.ownerId]),
    );
    const cells = answer.cells.map((cell) =>
      hidden.has(owners.get(cell.representativeId) ?? '')
        ? { ...cell, representativeLatitude: null, representativeLongitude: null }
        : cell,
    );
    return this.#clusters(answer.zoom, cells);
  }

  async #inBox(box: Box, zoom: number | undefined, limit: number): Promise<MapAnswer> {
    const boxZoom = zoomForBox(box);
    const shownZoom = Math.min(zoom ?? boxZoom, boxZoom + 1);
    if (shownZoom > precomputedZoom) {
      // A box of a few streets mostly holds a page of media or less: they are read first (one statement,
      // limit + 1 rows at most), and clustered live only when there are more.
      const media = await this.#deps.media.inBox(box, limit);
      if (media !== null) return { mode: 'media', zoom: shownZoom, media };
      return this.#clusters(shownZoom, await this.#deps.cells.clusterLive(box, shownZoom));
    }
    // Where the precomputed cells around the box count more than the limit, its media are not read.
    const precomputed = await this.#deps.cells.cellsIn(box, shownZoom);
    const counted = precomputed.reduce((sum, cell) => sum + cell.mediaCount, 0);
    const media = counted > limit ? null : await this.#deps.media.inBox(box, limit);
    if (media !== null) return { mode: 'media', zoom: shownZoom, media };
    return this.#clusters(shownZoom, precomputed);
  }

  /** The clusters that can be drawn without placing a media no longer public (clusterBlurCount). */
  #clusters(zoom: number, cells: MapCell[]): MapAnswer {
    const placeable = cells.filter(
      (cell) => cell.mediaCount >= clusterBlurCount || cell.representativeLatitude !== null,
    );
    return { mode: 'clusters', zoom, cells: placeable };
  }

  async #birthCity(viewerId: string | null) {
    return viewerId === null ? null : this.#deps.viewers.birthCity(viewerId);
  }

  async #centre(viewerId: string | null, latitude?: number, longitude?: number): Promise<Centre> {
    if (latitude !== undefined && longitude !== undefined) return { latitude, longitude };
    if (latitude !== undefined || longitude !== undefined) {
      const missing = latitude === undefined ? 'lat' : 'lng';
      throw new AppError('validationFailed', { source: { parameter: missing }, detail: 'lat and lng go together' });
    }
    const city = await this.#birthCity(viewerId);
    if (city === null) {
      throw new AppErrors(
        422,
        ['lat', 'lng'].map(
          (parameter) =>
            new AppError('validationFailed', {
              source: { parameter },
              detail: 'lat and lng are required without a signed-in viewer who chose a birth city',
            }),
        ),
      );
    }
    return { latitude: city.latitude, longitude: city.longitude };
  }

  /** The viewer's topic hashtags when personalizing, or null: no filter (anonymous, off, or no topics). */
  async #hashtags(viewerId: string | null, personalize: boolean): Promise<string[] | null> {
    if (viewerId === null || !personalize) return null;
    const hashtags = await this.#deps.viewers.topicHashtags(viewerId);
    return hashtags.length === 0 ? null : hashtags;
  }
}
