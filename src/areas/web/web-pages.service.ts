/**
 * What the public pages show, read through the other areas' services and this area's read-only
 * repository: the home page's highlights, the travel pages, profiles, establishments, the sitemap.
 * No HTTP here; unknown or non-public things are AppError notFound (the layout's 404 page).
 */
import type { Clock } from '../../platform/clock.ts';
import { type Page, pageOf } from '../../platform/db/page.ts';
import { firstPage, type PageRequest } from '../../platform/db/page-request.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { UsersService } from '../accounts/public.ts';
import { isActiveUser } from '../accounts/read-model.ts';
import type { EstablishmentsService } from '../catalogue/public.ts';
import type { GeoMediaService } from '../discovery/public.ts';
import { trendingWindow } from '../discovery/public.ts';
import type { FollowsService } from '../follows/public.ts';
import type { GamificationService } from '../gamification/public.ts';
import type { GeographyService } from '../geography/public.ts';
import type { MediaService, Post, PostsService } from '../media/public.ts';
import type { ListedMedia } from '../media/read-model.ts';
import type { TripsService, TripView } from '../trips/public.ts';
import type { PlaceCounts } from './place-counts.ts';
import {
  type CountryCount,
  type PlaceCount,
  placeMediaKeyset,
  type ShownMedia,
  type WebRepository,
} from './web.repository.ts';

/** An establishment as the catalogue lists it. */
export type ListedEstablishment = Awaited<ReturnType<EstablishmentsService['list']>>[number];

export const shown = { recent: 12, trending: 8, places: 8, badges: 12, trips: 6, sitemapProfiles: 5000 } as const;

export interface Highlights {
  recent: ShownMedia[];
  trending: { countryCode: string; media: ShownMedia[] } | null;
  places: PlaceCount[];
}

export type TravelView =
  | { level: 'world'; countries: CountryCount[] }
  | {
      level: 'country' | 'city';
      country: { code: string; nameEn: string; nameFr: string };
      city: { id: string; name: string } | null;
      cities: PlaceCount[];
      media: Page<ShownMedia>;
    };

export interface ProfileView {
  user: {
    id: string;
    username: string;
    nickname: string;
    avatarMediaId: string | null;
    coverMediaId: string | null;
    verified: boolean;
  };
  counts: { posts: number; followers: number; following: number; likesReceived: number };
  progress: NonNullable<Awaited<ReturnType<GamificationService['progress']>>>;
  badges: Awaited<ReturnType<GamificationService['earnedBadges']>>;
  media: Page<ShownMedia>;
  /** The latest trips the viewer may see (profileTrips of them). */
  trips: TripView[];
}

/** A post's page: the post (the photos the viewer may see) and its author's names. */
export interface PostView {
  post: Post;
  owner: { username: string; nickname: string };
}

export interface WebPagesDeps {
  repository: WebRepository;
  placeCounts: PlaceCounts;
  users: UsersService;
  media: MediaService;
  posts: PostsService;
  follows: FollowsService;
  geoMedia: GeoMediaService;
  geography: GeographyService;
  gamification: GamificationService;
  establishments: EstablishmentsService;
  trips: TripsService;
  clock: Clock;
}

export class WebPagesService {
  readonly #deps: WebPagesDeps;

  constructor(deps: WebPagesDeps) {
    this.#deps = deps;
  }

  /** The keyset of a place's media (/travel), for its route. */
  readonly placeMediaKeyset = placeMediaKeyset;

  get profileMediaKeyset() {
    return this.#deps.media.publicPostsKeyset;
  }

  get establishmentsKeyset() {
    return this.#deps.establishments.listKeyset;
  }

  /** The home page: the newest public media, what trends in the country with the most, the busiest places. */
  async highlights(viewerId: string | null = null): Promise<Highlights> {
    const { repository, placeCounts } = this.#deps;
    const [recent, countries, places] = await Promise.all([
      repository.recentMedia(shown.recent, this.#pageViewer(viewerId)),
      placeCounts.countries(),
      placeCounts.places(null),
    ]);
    const top = countries[0]?.countryCode ?? null;
    const trending = top === null ? null : await this.#trending(top, viewerId);
    return { recent, trending, places: places.slice(0, shown.places) };
  }

  /** The signed-in viewer of a page, for the lists that leave out the users hidden from them. */
  #pageViewer(viewerId: string | null) {
    return viewerId === null ? null : { id: viewerId, at: this.#deps.clock.now() };
  }

  async #trending(countryCode: string, viewerId: string | null): Promise<Highlights['trending']> {
    const { rows } = await this.#deps.geoMedia.trending(
      viewerId,
      { country: countryCode, windowDays: trendingWindow.defaultDays, personalize: false },
      firstPage(shown.trending, 'media-trending'),
    );
    const media = await this.#withNames(rows.slice(0, shown.trending));
    return media.length === 0 ? null : { countryCode, media };
  }

  /** /travel: the countries with public media; a country's cities and media; a city's media. */
  async travel(
    place: { countryCode?: string; cityId?: string },
    page: PageRequest,
    viewerId: string | null = null,
  ): Promise<TravelView> {
    const { geography, placeCounts, repository } = this.#deps;
    if (place.countryCode === undefined) {
      if (place.cityId !== undefined) throw new AppError('notFound', { source: { parameter: 'city' } });
      return { level: 'world', countries: await placeCounts.countries() };
    }
    const country = await geography.country(place.countryCode.toUpperCase());
    if (country === null) throw new AppError('notFound', { source: { parameter: 'country' } });
    const city = place.cityId === undefined ? null : await geography.city(place.cityId);
    if (place.cityId !== undefined && (city === null || city.countryCode !== country.alpha2))
      throw new AppError('notFound', { source: { parameter: 'city' } });
    const [cities, rows] = await Promise.all([
      city === null ? placeCounts.places(country.alpha2) : Promise.resolve([]),
      repository.placeMedia(
        { countryCode: country.alpha2, cityId: city?.id ?? null },
        page,
        this.#pageViewer(viewerId),
      ),
    ]);
    return {
      level: city === null ? 'country' : 'city',
      country: { code: country.alpha2, nameEn: country.nameEn, nameFr: country.nameFr },
      city: city === null ? null : { id: city.id, name: city.name },
      cities,
      media: pageOf(rows, page, placeMediaKeyset),
    };
  }

  /**
   * A public profile: unknown, banned, erased or deleting users are notFound (the same 404 for each),
   * and so is a user the signed-in viewer blocks or is blocked by (accounts' rule).
   */
  async profile(username: string, page: PageRequest, viewerId: string | null = null): Promise<ProfileView> {
    const { users, media, follows, gamification, repository } = this.#deps;
    const user = await users.findByUsernameFor(username, viewerId);
    if (user === null || user.username === null || !isActiveUser(user))
      throw new AppError('notFound', { source: { parameter: 'username' } });
    const [posts, followCounts, likesReceived, progress, badges, list, trips] = await Promise.all([
      repository.publicPostCount(user.id),
      follows.counts(user.id),
      media.likesReceivedBy(user.id),
      gamification.progress(user.id, viewerId),
      gamification.earnedBadges(user.id, firstPage(shown.badges, 'earned-badges')),
      media.listPublicPosts(user.id, page, viewerId),
      this.#deps.trips.list(user.id, viewerId, firstPage(shown.trips, 'trips')),
    ]);
    if (progress === null) throw new AppError('notFound', { source: { parameter: 'username' } });
    const owner = { username: user.username, nickname: user.nickname };
    const cityNames = await repository.cityNames(this.#publicCityIds(list.items));
    return {
      user: {
        id: user.id,
        username: user.username,
        nickname: user.nickname ?? user.username,
        avatarMediaId: user.avatarMediaId,
        coverMediaId: user.coverMediaId,
        verified: user.verifiedAt !== null,
      },
      counts: { posts, followers: followCounts.followers, following: followCounts.following, likesReceived },
      progress,
      badges: badges.slice(0, shown.badges),
      media: {
        ...list,
        items: list.items.map((row) => ({
          ...row,
          ownerUsername: owner.username,
          ownerNickname: owner.nickname,
          cityName: row.locationPublic && row.cityId !== null ? (cityNames.get(row.cityId) ?? null) : null,
        })),
      },
      trips: trips.rows.slice(0, shown.trips).flatMap((row) => trips.views.get(row.id) ?? []),
    };
  }

  /**
   * A post's page (/posts/{id}): notFound when the viewer may not see it (media's rule, blocks
   * included) or its author is not an active user with a name.
   */
  async post(postId: string, viewerId: string | null = null): Promise<PostView> {
    const post = await this.#deps.posts.find(postId, viewerId);
    const owner = await this.#deps.users.findVisibleTo(post.lead.ownerId, viewerId);
    if (owner === null || owner.username === null || !isActiveUser(owner))
      throw new AppError('notFound', { source: { parameter: 'postId' } });
    return { post, owner: { username: owner.username, nickname: owner.nickname ?? owner.username } };
  }

  /** /sustainable-tourism: active establishments, newest first. */
  async establishments(page: PageRequest): Promise<Page<ListedEstablishment>> {
    const { establishments } = this.#deps;
    return pageOf(await establishments.list({}, page), page, establishments.listKeyset);
  }

  /** What the sitemap lists beyond the fixed pages: profiles and the countries of /travel. */
  async sitemap(): Promise<{ profiles: { username: string; updatedAt: Date }[]; countries: CountryCount[] }> {
    const [profiles, countries] = await Promise.all([
      this.#deps.repository.sitemapProfiles(shown.sitemapProfiles),
      this.#deps.placeCounts.countries(),
    ]);
    return { profiles, countries };
  }

  #publicCityIds(rows: ListedMedia[]): string[] {
    return rows.flatMap((row) => (row.locationPublic && row.cityId !== null ? [row.cityId] : []));
  }

  /** Media listed by another area's service, with their owners' names and places (owners no longer active dropped). */
  async #withNames(rows: ListedMedia[]): Promise<ShownMedia[]> {
    const { repository } = this.#deps;
    const [owners, cityNames] = await Promise.all([
      repository.ownerNames(rows.map((row) => row.ownerId)),
      repository.cityNames(this.#publicCityIds(rows)),
    ]);
    return rows.flatMap((row) => {
      const owner = owners.get(row.ownerId);
      if (owner === undefined) return [];
      const cityName = row.locationPublic && row.cityId !== null ? (cityNames.get(row.cityId) ?? null) : null;
      return [{ ...row, ownerUsername: owner.username, ownerNickname: owner.nickname, cityName }];
    });
  }
}
