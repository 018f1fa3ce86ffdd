/**
 * The kinds share links know from the start, read through their owners' faces: a post (media's post by
 * its id, every photo of it in order; a member photo's id opens the post it belongs to, as GET
 * /api/posts/{postId} does) and a bookmark collection (its public photos, newest bookmark first).
 */
import { firstPage } from '../../platform/db/page-request.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { BookmarksServices } from '../bookmarks/public.ts';
import type { MediaServices, Post } from '../media/public.ts';
import { isPubliclyVisible } from '../media/public.ts';
import { type SharedPhoto, type ShareTarget, targetNotFound } from './share-targets.ts';

/** A shared collection shows its newest bookmarks, at most this many (no paging on the shared page). */
export const sharedCollectionPhotos = 60;

type PhotoFields = Omit<SharedPhoto, 'mediaId'> & { id: string };
const sharedPhoto = (row: PhotoFields): SharedPhoto => ({
  mediaId: row.id,
  width: row.width,
  height: row.height,
  description: row.description,
  takenAt: row.takenAt,
  authorSensitive: row.authorSensitive,
  contentWarning: row.contentWarning,
});

/** A photo of a post: its own text (alt text); a photo never put in a post has only the post's caption. */
const postPhoto = (row: Post['photos'][number], caption: string | null, single: boolean): SharedPhoto =>
  sharedPhoto({ ...row, description: row.altText ?? (single ? caption : null) });

export function postTarget({ media, posts }: Pick<MediaServices, 'media' | 'posts'>): ShareTarget {
  return {
    async requireOwn(ownerId, targetId) {
      const row = await media.findVisibleMedia(targetId, ownerId);
      if (row === null || row.ownerId !== ownerId) throw targetNotFound();
    },
    async view(ownerId, targetId) {
      // As anyone sees it: published, not hidden, its owner not banned; a photo a moderator hid is left out.
      const post = await posts.find(targetId, null).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'notFound') return null;
        throw error;
      });
      if (post === null || post.lead.ownerId !== ownerId) return null;
      const caption = post.lead.description;
      const single = post.photos.length === 1 && post.lead.postId === null;
      return {
        kind: 'post',
        title: null,
        caption,
        photos: post.photos.map((row) => postPhoto(row, caption, single)),
      };
    },
  };
}

export function collectionTarget({
  bookmarks,
  bookmarkCollections,
}: Pick<BookmarksServices, 'bookmarks' | 'bookmarkCollections'>): ShareTarget {
  const findOwn = async (ownerId: string, id: string) => {
    try {
      return await bookmarkCollections.requireOwn(ownerId, id, { pointer: '/targetId' });
    } catch (error) {
      if (error instanceof AppError && error.code === 'notFound') return null;
      throw error;
    }
  };
  return {
    async requireOwn(ownerId, targetId) {
      if ((await findOwn(ownerId, targetId)) === null) throw targetNotFound();
    },
    async view(ownerId, targetId) {
      const collection = await findOwn(ownerId, targetId);
      if (collection === null) return null;
      const rows = await bookmarks.list(
        ownerId,
        { kind: 'in', collectionId: targetId },
        firstPage(sharedCollectionPhotos, 'shared-collection'),
      );
      // The owner's list holds what the owner may open (their own unpublished posts too): a visitor sees the public ones.
      const photos = rows
        .slice(0, sharedCollectionPhotos)
        .map((row) => row.media)
        .filter(isPubliclyVisible)
        .map(sharedPhoto);
      return { kind: 'collection', title: collection.name, caption: null, photos };
    },
  };
}
