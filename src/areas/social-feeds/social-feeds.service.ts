/**
 * Social feeds: a user's named, shareable selections over their own public media, each found by an
 * unguessable code. At most feedLimits.maxFeedsPerUser feeds a user (409 conflict beyond); the
 * hand-picked media must be the owner's posts. The public view hides a feed whose owner is banned
 * or erased (404), and shows only the owner's publicly listed posts that match it.
 */
import type { Clock } from '../../platform/clock.ts';
import { isForeignKeyViolation, uniqueViolation } from '../../platform/db/errors.ts';
import { type Page, pageOf } from '../../platform/db/page.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { AppError, AppErrors } from '../../platform/http/error-catalogue.ts';
import { newId, parseUuidOrHex } from '../../platform/ids/ids.ts';
import type { UsersService } from '../accounts/public.ts';
import type { FilterResult, FiltersService } from '../filters/public.ts';
import { mediaFilterTextOf } from '../filters/read-model.ts';
import type { GeographyService } from '../geography/public.ts';
import type { ListedMedia } from '../media/read-model.ts';
import { feedCodePattern, newFeedCode } from './feed-codes.ts';
import { type FeedInput, feedLimits, readFeedSelection } from './feed-selection.ts';
import {
  feedMediaKeyset,
  type OwnSocialFeed,
  type PublishedFeed,
  type SocialFeedsRepository,
} from './social-feeds.repository.ts';

/** The unique constraint on codes (a collision of 71 random bits: drawn again). */
const codeConstraint = 'social_feeds_code_key';

const feedNotFound = () => new AppError('notFound', { source: { parameter: 'code' }, detail: 'no such social feed' });

export interface SocialFeedsServiceDeps {
  transactions: Transactions;
  repository: SocialFeedsRepository;
  users: UsersService;
  filters: FiltersService;
  cities: Pick<GeographyService, 'cityById'>;
  clock: Clock;
}

export class SocialFeedsService {
  readonly #deps: SocialFeedsServiceDeps;

  constructor(deps: SocialFeedsServiceDeps) {
    this.#deps = deps;
  }

  /** The city must exist, and lie in the feed's country when both are given. */
  async #checkCity(cityId: string, countryCode: string | null): Promise<AppError | null> {
    const city = await this.#deps.cities.cityById(cityId);
    if (city === null) {
      return new AppError('validationFailed', { source: { pointer: '/cityId' }, detail: 'no such city' });
    }
    if (countryCode !== null && city.countryCode !== countryCode) {
      return new AppError('validationFailed', {
        source: { pointer: '/cityId' },
        detail: `this city is in ${city.countryCode}, not in countryCode ${countryCode}`,
        meta: { cityCountryCode: city.countryCode },
      });
    }
    return null;
  }

  async create(ownerId: string, input: FeedInput): Promise<OwnSocialFeed> {
    const { selection, errors } = readFeedSelection(input);
    if (selection.cityId !== null) {
      const cityError = await this.#checkCity(selection.cityId, selection.countryCode);
      if (cityError !== null) errors.push(cityError);
    }
    if (selection.mediaIds !== null) {
      const owned = await this.#deps.repository.ownPostIds(ownerId, selection.mediaIds);
      (input.mediaIds ?? []).forEach((raw, index) => {
        const id = parseUuidOrHex(raw);
        if (id !== null && !owned.has(id)) {
          errors.push(
            new AppError('validationFailed', {
              source: { pointer: `/mediaIds/${index}` },
              detail: 'not one of your posts',
              meta: { mediaId: raw },
            }),
          );
        }
      });
    }
    if (errors.length > 0) throw new AppErrors(422, errors);

    for (let attempt = 1; ; attempt++) {
      try {
        // A savepoint inside a caller's transaction: a code collision is retried in it.
        return await this.#deps.transactions.attempt(async () => {
          await this.#deps.users.lock(ownerId);
          if ((await this.#deps.repository.countOfOwner(ownerId)) >= feedLimits.maxFeedsPerUser) {
            throw new AppError('conflict', {
              detail: `you already have ${feedLimits.maxFeedsPerUser} social feeds, the most allowed: delete one first`,
              meta: { maxFeeds: feedLimits.maxFeedsPerUser },
            });
          }
          const { mediaIds, ...criteria } = selection;
          return this.#deps.repository.insert(
            {
              id: newId(),
              code: newFeedCode(),
              ownerId,
              ...criteria,
              handPicked: mediaIds !== null,
              createdAt: this.#deps.clock.now(),
            },
            mediaIds ?? [],
          );
        });
      } catch (error) {
        if (attempt < 3 && uniqueViolation(error) === codeConstraint) continue;
        // A picked media deleted between the check above and the insert.
        if (isForeignKeyViolation(error)) {
          throw new AppError('validationFailed', {
            source: { pointer: '/mediaIds' },
            detail: 'a picked media no longer exists',
          });
        }
        throw error;
      }
    }
  }

  listOfOwner(ownerId: string, page: PageRequest): Promise<OwnSocialFeed[]> {
    return this.#deps.repository.listOfOwner(ownerId, page);
  }

  /** Deletes one of the owner's feeds; another user's code is as unknown as a made-up one (404). */
  async delete(ownerId: string, code: string): Promise<void> {
    if (!feedCodePattern.test(code) || !(await this.#deps.repository.delete(ownerId, code))) throw feedNotFound();
  }

  /**
   * The public feed and one page of its media; 404 for an unknown or deleted feed, a banned owner, or
   * an owner the viewer blocks or is blocked by; an owner the viewer mutes shows no media to them.
   * The viewer's keyword filters (context feeds) leave out what they hide and warn on the rest.
   */
  async published(
    code: string,
    page: PageRequest,
    viewerId: string | null = null,
  ): Promise<PublishedFeed & { media: Page<ListedMedia & { filtered?: FilterResult[] }> }> {
    const found = feedCodePattern.test(code) ? await this.#deps.repository.findPublished(code) : null;
    if (found === null) throw feedNotFound();
    const ownerId = found.owner.id;
    if (await this.#deps.users.blockedEitherWay(viewerId, ownerId)) throw feedNotFound();
    const muted = viewerId !== ownerId && (await this.#deps.users.hiddenFrom(viewerId, 'content')).has(ownerId);
    const { filters } = this.#deps;
    const hiddenBy = muted ? [] : await filters.hiddenFor(viewerId, 'feeds');
    const rows = muted ? [] : await this.#deps.repository.media(found.feed.id, page, hiddenBy);
    const listed = pageOf(rows, page, feedMediaKeyset);
    return {
      ...found,
      media: { ...listed, items: await filters.warn(viewerId, 'feeds', listed.items, mediaFilterTextOf) },
    };
  }
}
