/**
 * The rules of the geographic media lists: where "around me" is (an explicit centre, else the viewer's
 * birth city), which country trends (an explicit one, else the birth city's), personalization through
 * the viewer's topics, and whether a map box shows media or clusters.
 */
import type { Clock } from '../../platform/clock.ts';
import { AppError, AppErrors } from '../../platform/http/error-catalogue.ts';
import type { PageRequest } from '../../platform/http/pagination.ts';
import type { ListedMedia } from '../media/read-model.ts';
import type { Centre, DistancedMedia, GeoMediaRepository, LikedMedia } from './geo-media.repository.ts';
import type { MapCell, MapCellsRepository } from './map-cells.repository.ts';
import { type Box, precomputedZoom, zoomForBox } from './map-grid.ts';

/** What discovery reads of other areas about a viewer. */
export interface ViewerProfile {
  /** The viewer's birth city, if they chose one. */
  birthCity(userId: string): Promise<(Centre & { countryCode: string }) | null>;
  /** The hashtags of the viewer's topics (empty when they follow none). */
  topicHashtags(userId: string): Promise<string[]>;
}

export const nearbyDistance = { defaultMetres: 5_000, maxMetres: 100_000 } as const;
export const recommendedDistance = { defaultMetres: 50_000, maxMetres: 200_000 } as const;
export const trendingWindow = { defaultDays: 7, maxDays: 90 } as const;

export type MapAnswer =
  | { mode: 'media'; zoom: number; media: ListedMedia[] }
  | { mode: 'clusters'; zoom: number; cells: MapCell[]; representatives: ListedMedia[] };

export class GeoMediaService {
  private readonly media: GeoMediaRepository;
  private readonly cells: MapCellsRepository;
  private readonly viewers: ViewerProfile;
  private readonly clock: Clock;

  constructor(media: GeoMediaRepository, cells: MapCellsRepository, viewers: ViewerProfile, clock: Clock) {
    this.media = media;
    this.cells = cells;
    this.viewers = viewers;
    this.clock = clock;
  }

  nearby(at: Centre, distanceMetres: number, page: PageRequest): Promise<DistancedMedia[]> {
    return this.media.nearby(at, distanceMetres, page);
  }

  async recommended(
    viewerId: string | null,
    request: { latitude?: number; longitude?: number; distance: number; personalize: boolean },
    page: PageRequest,
  ): Promise<DistancedMedia[]> {
    const at = await this.#centre(viewerId, request.latitude, request.longitude);
    return this.media.recommended(at, request.distance, await this.#hashtags(viewerId, request.personalize), page);
  }

  async trending(
    viewerId: string | null,
    request: { country?: string; windowDays: number; personalize: boolean },
    page: PageRequest,
  ): Promise<{ country: string; rows: LikedMedia[] }> {
    const country = request.country ?? (await this.#birthCity(viewerId))?.countryCode;
    if (country === undefined) {
      throw new AppError('validationFailed', {
        source: { parameter: 'country' },
        detail: 'country is required without a signed-in viewer who chose a birth city',
      });
    }
    const since = new Date(this.clock.now().getTime() - request.windowDays * 86_400_000);
    const hashtags = await this.#hashtags(viewerId, request.personalize);
    return { country, rows: await this.media.trending(country, since, hashtags, page) };
  }

  /** Media when the box holds at most `limit` of them, else the clusters of the box's zoom. */
  async inBox(box: Box, zoom: number | undefined, limit: number): Promise<MapAnswer> {
    const shownZoom = zoom ?? zoomForBox(box);
    const media = await this.media.inBox(box, limit);
    if (media !== null) return { mode: 'media', zoom: shownZoom, media };
    const cells =
      shownZoom <= precomputedZoom
        ? await this.cells.cellsIn(box, shownZoom)
        : await this.cells.clusterLive(box, shownZoom);
    const representatives = await this.media.placedInPublicAmong(cells.map((cell) => cell.representativeId));
    return { mode: 'clusters', zoom: shownZoom, cells, representatives };
  }

  async #birthCity(viewerId: string | null) {
    return viewerId === null ? null : this.viewers.birthCity(viewerId);
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
    const hashtags = await this.viewers.topicHashtags(viewerId);
    return hashtags.length === 0 ? null : hashtags;
  }
}
