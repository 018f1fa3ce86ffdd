/**
 * What a local post shows the fediverse (docs/api.md, Federation): read through the media, accounts
 * and geography areas' services, as plain data (outbound/post-note.ts makes the Note of it). A post is
 * federated only while anyone may see it: a lead (or a photo never put in a post), published, not
 * hidden, of a local, visible and named owner (media's rule for an anonymous viewer); a member of a
 * post is not a post. Its place is at most the city it shows (the city's own coordinates): never the
 * photo's EXIF position.
 */
import { createHash } from 'node:crypto';
import { variantDimensions } from '../../../adapters/images/index.ts';
import { AppError } from '../../../platform/http/error-catalogue.ts';
import { isLowercaseUuid } from '../../../platform/ids/ids.ts';
import type { UsersService } from '../../accounts/public.ts';
import { isActiveUser } from '../../accounts/read-model.ts';
import type { GeographyService } from '../../geography/public.ts';
import { type MediaService, mediaFlags, mediaVariantUrls, type PostsService } from '../../media/public.ts';
import type { MediaRow } from '../../media/read-model.ts';
import { postPagePath } from '../../syndication/public.ts';
import { hashtagPath, noteContentOf } from './note-content.ts';

export interface FederatedPhoto {
  /** The large variant (2048 px at most, WebP). */
  url: string;
  mediaType: 'image/webp';
  width: number;
  height: number;
  /** The photo's own text (alt text), else null. */
  name: string | null;
}

export interface FederatedPost {
  /** The lead media's id: the Note is `{PUBLIC_URL}/ap/posts/{id}`. */
  id: string;
  ownerId: string;
  /** The post's page. */
  url: string;
  /** The caption as safe HTML (note-content.ts). */
  content: string;
  hashtags: Array<{ name: string; href: string }>;
  sensitive: boolean;
  /** The content warning's text. */
  summary: string | null;
  published: Date;
  updated: Date;
  photos: FederatedPhoto[];
  /** The city the post shows, with the city's coordinates. */
  place: { name: string; latitude: number; longitude: number } | null;
}

export interface FederatedPostsDeps {
  publicUrl: string;
  media: MediaService;
  posts: PostsService;
  users: UsersService;
  geography: GeographyService;
}

/** Whether the photo's position is shown to others (the post page's rule). */
const showsPlace = (photo: MediaRow) => photo.latitude !== null && photo.longitude !== null && photo.locationPublic;

const latest = (dates: Date[]) => new Date(Math.max(...dates.map((date) => date.getTime())));

export class FederatedPosts {
  readonly #deps: FederatedPostsDeps;

  constructor(deps: FederatedPostsDeps) {
    this.#deps = deps;
  }

  /** The post as the fediverse sees it, or null when it is not a public post (see above). */
  async publicPost(mediaId: string): Promise<FederatedPost | null> {
    if (!isLowercaseUuid(mediaId)) return null;
    const { media, posts, users, geography, publicUrl } = this.#deps;
    const lead = await media.findVisibleMedia(mediaId, null);
    if (lead === null || (lead.postId !== null && lead.postId !== lead.id)) return null;
    const owner = await users.findVisible(lead.ownerId);
    if (owner?.username == null || owner.remoteHandle !== null || !isActiveUser(owner)) return null;
    const post = await posts.find(lead.id, null).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'notFound') return null;
      throw error;
    });
    if (post === null || post.photos.length === 0) return null;
    const placed = post.photos.find((photo) => showsPlace(photo) && photo.cityId !== null);
    const city = placed?.cityId == null ? null : await geography.cityById(placed.cityId);
    return {
      id: lead.id,
      ownerId: lead.ownerId,
      url: new URL(postPagePath(lead.id), publicUrl).href,
      content: noteContentOf(lead.description, publicUrl),
      hashtags: lead.hashtags.map((tag) => ({ name: `#${tag}`, href: new URL(hashtagPath(tag), publicUrl).href })),
      sensitive: lead.flag >= mediaFlags.sensitive || post.photos.some((photo) => photo.authorSensitive),
      summary: lead.authorSensitive ? lead.contentWarning : null,
      published: lead.createdAt,
      updated: latest(post.photos.map((photo) => photo.updatedAt)),
      photos: post.photos.map((photo) => ({
        url: new URL(mediaVariantUrls(photo).large, publicUrl).href,
        mediaType: 'image/webp',
        ...variantDimensions(photo, 'webp', 'large'),
        name: photo.altText,
      })),
      place: city === null ? null : { name: city.name, latitude: city.latitude, longitude: city.longitude },
    };
  }
}

/** A digest of what the Note says (its `updated` aside): an edit that changes nothing sends nothing. */
export function postDigest(post: FederatedPost): string {
  const { updated: _, ...said } = post;
  return createHash('sha256').update(JSON.stringify(said)).digest('base64url');
}
