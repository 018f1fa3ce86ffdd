/** Recording clicks on offers: bots, duplicates, own clicks and the creator to credit (docs/api.md, "Clicks, redirects and commissions"). */
import type { Clock } from '../../platform/clock.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { MediaService } from '../media/public.ts';
import { isBotOrPrefetch } from './bots.ts';
import { clickerLockKey, newClickRef, visitorKeyOf } from './click-ref.ts';
import { partnerRedirectUrl } from './partner-url.ts';
import type { ClickRow } from './tables.ts';
import type { ClickerKey, TrackingRepository } from './tracking.repository.ts';

/** What tracking needs of an offer (the catalogue's `offers.findForTracking`). */
export interface TrackableOffer {
  id: string;
  partnerUrl: string;
  commissionRateBps: number;
  currency: string;
  establishmentId: string | null;
  brandId: string | null;
  live: boolean;
}
export interface OfferSource {
  findForTracking(id: string): Promise<TrackableOffer | null>;
}

/** Repeated clicks of one clicker on one offer and media inside this window count once. */
export const duplicateWindowMs = 30 * 60 * 1000;

export interface ClickRequest {
  offerId: string;
  mediaId: string | null;
  /** The signed-in clicker (a token, or on /go the web sign-in cookie): the media's owner earns nothing. */
  viewerId: string | null;
  /** The client IP as Fastify resolves it (TRUST_PROXY): an anonymous clicker's network. */
  ip: string;
  headers: Record<string, string | string[] | undefined>;
  source: 'api' | 'redirect';
  /** A HEAD request (a link checker or prefetcher): recorded as a bot. */
  probe: boolean;
  /** What to do with a media that is not public: refuse (the API) or record the click without it (redirects). */
  hiddenMedia: 'refuse' | 'ignore';
}

export interface RecordedClick {
  click: ClickRow;
  redirectUrl: string;
  /** True when this answered an earlier click of the same clicker (nothing new recorded). */
  duplicate: boolean;
}

export class ClicksService {
  readonly #transactions: Transactions;
  readonly #repository: TrackingRepository;
  readonly #offers: OfferSource;
  readonly #media: MediaService;
  readonly #clock: Clock;
  #lastKeysCleared = Number.NEGATIVE_INFINITY;

  constructor(
    transactions: Transactions,
    repository: TrackingRepository,
    offers: OfferSource,
    media: MediaService,
    clock: Clock,
  ) {
    this.#transactions = transactions;
    this.#repository = repository;
    this.#offers = offers;
    this.#media = media;
    this.#clock = clock;
  }

  /** The offer to click through: 404 unknown, 410 offerGone when expired, inactive or without a usable URL. */
  async #liveOffer(offerId: string): Promise<TrackableOffer> {
    const offer = await this.#offers.findForTracking(offerId);
    if (offer === null) throw new AppError('notFound');
    if (!offer.live || partnerRedirectUrl(offer.partnerUrl, 'x') === null)
      throw new AppError('offerGone', {
        meta: { offerId: offer.id, establishmentId: offer.establishmentId, brandId: offer.brandId },
      });
    return offer;
  }

  async click(request: ClickRequest): Promise<RecordedClick> {
    const offer = await this.#liveOffer(request.offerId);
    let media: { id: string; ownerId: string } | null = null;
    if (request.mediaId !== null) {
      // Publicly visible only: the owner's own unpublished post earns nothing either.
      media = await this.#media.findVisibleMedia(request.mediaId, null);
      if (media === null && request.hiddenMedia === 'refuse')
        throw new AppError('notFound', { source: { pointer: '/mediaId' }, detail: 'No public media with this id' });
    }
    const clicker: ClickerKey =
      request.viewerId !== null ? { viewerId: request.viewerId } : { visitorKey: visitorKeyOf(request.ip) };
    const now = this.#clock.now();
    const windowStart = new Date(now.getTime() - duplicateWindowMs);
    // A prefetch and the reader's real click that follows are not duplicates of each other.
    const bot = request.probe || isBotOrPrefetch(request.headers);
    const recorded = await this.#transactions.run(async () => {
      await this.#repository.lockClicker(clickerLockKey(offer.id, media?.id ?? null, clicker, bot), now);
      const earlier = await this.#repository.findDuplicate(offer.id, media?.id ?? null, clicker, bot, windowStart);
      if (earlier !== null) return this.#recorded(offer, earlier, true);
      const click: ClickRow = {
        ref: newClickRef(),
        offerId: offer.id,
        mediaId: media?.id ?? null,
        creatorId: media?.ownerId ?? null,
        establishmentId: offer.establishmentId,
        brandId: offer.brandId,
        viewerId: request.viewerId,
        visitorKey: 'visitorKey' in clicker ? clicker.visitorKey : null,
        source: request.source,
        bot,
        ownClick: media !== null && media.ownerId === request.viewerId,
        currency: offer.currency,
        commissionRateBps: offer.commissionRateBps,
        createdAt: now,
      };
      await this.#repository.insertClick(click);
      return this.#recorded(offer, click, false);
    });
    await this.#forgetOldVisitorKeys(now, windowStart);
    return recorded;
  }

  /**
   * Visitor keys serve the duplicate window only: those older are cleared, at most once a minute per
   * instance and outside the click's transaction (so concurrent clicks never wait on it).
   */
  async #forgetOldVisitorKeys(now: Date, windowStart: Date): Promise<void> {
    if (now.getTime() - this.#lastKeysCleared < 60_000) return;
    this.#lastKeysCleared = now.getTime();
    await this.#repository.clearVisitorKeys(windowStart);
  }

  #recorded(offer: TrackableOffer, click: ClickRow, duplicate: boolean): RecordedClick {
    // #liveOffer checked the URL: it cannot be null here.
    return { click, redirectUrl: partnerRedirectUrl(offer.partnerUrl, click.ref) ?? '', duplicate };
  }
}
