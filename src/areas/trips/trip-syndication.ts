/**
 * A trip's feeds and oEmbed (docs/api.md, Feeds and oEmbed): `/trips/{id}.rss` and `.atom` (its newest
 * photos, as `feedEntries` of any feed), and oEmbed for `/trips/{id}` and its card `/embed/trips/{id}`.
 * Both show what an anonymous visitor of the trip sees (findVisible(null, …)): public photos, no
 * position at all (a feed entry and an oEmbed answer carry none), nothing of a hidden trip.
 */
import { Type } from 'typebox';
import { type Locale, translate } from '../../platform/i18n/i18n.ts';
import { parseUuidOrHex } from '../../platform/ids/ids.ts';
import { type AccountsServices, displayNameOf } from '../accounts/public.ts';
import { isActiveUser } from '../accounts/read-model.ts';
import { isPubliclyListed } from '../media/public.ts';
import {
  type FeedMediaSources,
  type FeedSource,
  feedEntries,
  type OEmbedKind,
  photoFeedEntry,
  profilePagePath,
} from '../syndication/public.ts';
import { embedTripPath, tripPagePath } from './trip-paths.ts';
import type { TripsService } from './trips.service.ts';

type Users = Pick<AccountsServices, 'users'>['users'];

const uuidPattern = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** The trip as anyone sees it, and its owner (active, with a username), or null. */
async function publicTrip(trips: TripsService, users: Users, key: string) {
  const id = parseUuidOrHex(key);
  const view = id === null ? null : await trips.findVisible(null, id);
  if (view === null) return null;
  const owner = await users.find(view.trip.ownerId);
  if (owner === null || !isActiveUser(owner) || owner.username === null) return null;
  return { view, owner: { ...owner, username: owner.username } };
}

export function tripFeed(trips: TripsService, users: Users, media: FeedMediaSources): FeedSource {
  return {
    path: '/trips/{tripId}',
    param: { name: 'tripId', schema: Type.String({ pattern: uuidPattern, description: 'The trip UUID' }) },
    summary: "a trip's photos (its latest 20 by capture time)",
    async load(key, locale) {
      const found = await publicTrip(trips, users, key);
      if (found === null) return null;
      const { view, owner } = found;
      const author = { username: owner.username, nickname: owner.nickname };
      const newest = view.photos.slice(-feedEntries).reverse();
      const rows = await Promise.all(newest.map((photo) => media.media.findServableMedia(photo.id)));
      // A feed is a public list: a photo a moderator marked sensitive is left out, as from every feed.
      // A photo of a post of several links to its post's page (the post's id is its lead's).
      const entries = await Promise.all(
        rows.flatMap((row) =>
          row === null || !isPubliclyListed(row) ? [] : [photoFeedEntry(row, author, media, locale)],
        ),
      );
      const updated = Math.max(view.trip.createdAt.getTime(), ...entries.map((entry) => entry.published.getTime()));
      const title = trips.titleOf(view, locale);
      return {
        title,
        description: translate(locale, 'trips.feed.description', { title, name: displayNameOf(owner) }),
        htmlPath: tripPagePath(view.trip.id),
        selfPath: tripPagePath(view.trip.id),
        updated: new Date(updated),
        entries,
      };
    },
  };
}

/** A trip's card: 500 pixels wide at most, its cover at 16:9 and six lines of text under it. */
const tripCardWidth = 500;
const tripCardText = 170;

export function tripEmbeds(trips: TripsService, users: Users): OEmbedKind {
  return {
    match: (path) => /^(?:\/embed)?\/trips\/([0-9a-fA-F-]{36})\/?$/.exec(path)?.[1] ?? null,
    async resolve(key, locale: Locale) {
      const found = await publicTrip(trips, users, key);
      if (found === null) return null;
      const { view, owner } = found;
      // The cover of an embed is the first photo its author did not mark sensitive (none: no picture).
      const cover = view.photos.find((photo) => !photo.authorSensitive) ?? null;
      return {
        type: 'rich',
        title: trips.titleOf(view, locale),
        author: { name: displayNameOf(owner), path: profilePagePath(owner.username) },
        cardPath: embedTripPath(view.trip.id),
        card: {
          width: tripCardWidth,
          heightAt: (shown) => (cover === null ? 0 : Math.round((shown * 9) / 16)) + tripCardText,
        },
        image:
          cover === null
            ? null
            : { mediaId: cover.id, originalFormat: cover.originalFormat, width: cover.width, height: cover.height },
      };
    },
  };
}
