/**
 * The new shape of a post from a PATCH (docs/api.md, Posts), checked before anything is written:
 * photos removed, then added at the end, then the order (every photo of the result once), then the
 * photos' texts. Pure: the service locks and reads the rows, this decides.
 */
import { AppError } from '../../platform/http/error-catalogue.ts';
import { parseUuidOrHex } from '../../platform/ids/ids.ts';

export const maxPostPhotos = 10;

/** A photo given to a post: one of the owner's media, with its own text (alt text) or none. */
export interface PostPhotoInput {
  mediaId: string;
  description?: string | null;
}

/** The photo that stands for a post on the map: its first whose position is public; null when none is. */
export function mapPhotoOf(
  photos: Array<{ id: string; latitude: number | null; longitude: number | null; locationPublic: boolean }>,
): string | null {
  return (
    photos.find((photo) => photo.locationPublic && photo.latitude !== null && photo.longitude !== null)?.id ?? null
  );
}

export interface PostChange {
  caption?: string | null;
  add?: PostPhotoInput[];
  remove?: string[];
  order?: string[];
  photos?: Array<{ mediaId: string; description: string | null }>;
}

export interface PostPlan {
  order: string[];
  removed: string[];
  texts: Map<string, string | null | undefined>;
}

/** 422 at the second mention of a photo. */
export function refuseRepeats(ids: string[], pointer: (index: number) => string): void {
  const seen = new Set<string>();
  for (const [index, id] of ids.entries()) {
    if (seen.has(id))
      throw new AppError('validationFailed', { source: { pointer: pointer(index) }, detail: 'a photo given twice' });
    seen.add(id);
  }
}

export const tooMany = (pointer: string) =>
  new AppError('validationFailed', {
    source: { pointer },
    detail: `a post holds 1 to ${maxPostPhotos} photos`,
    meta: { maxPhotos: maxPostPhotos },
  });

const invalid = (pointer: string, detail: string) => new AppError('validationFailed', { source: { pointer }, detail });

function ids(values: string[], pointer: (index: number) => string): string[] {
  const parsed = values.map((value, index) => {
    const id = parseUuidOrHex(value);
    if (id === null) throw new AppError('invalidId', { source: { pointer: pointer(index) } });
    return id;
  });
  refuseRepeats(parsed, pointer);
  return parsed;
}

export function plannedPost(leadId: string, current: string[], change: PostChange, added: string[]): PostPlan {
  const removed = ids(change.remove ?? [], (index) => `/remove/${index}`);
  for (const [index, id] of removed.entries()) {
    if (id === leadId)
      throw new AppError('postLeadRemoval', {
        source: { pointer: `/remove/${index}` },
        detail: "the lead photo anchors the post's reactions and comments; delete the post instead",
      });
    if (!current.includes(id)) throw invalid(`/remove/${index}`, 'not a photo of this post');
  }
  refuseRepeats(added, (index) => `/add/${index}/mediaId`);
  for (const [index, id] of added.entries()) {
    if (current.includes(id))
      throw new AppError('photoInPost', {
        source: { pointer: `/add/${index}/mediaId` },
        detail: 'already in this post',
      });
  }
  const result = [...current.filter((id) => !removed.includes(id)), ...added];
  if (result.length > maxPostPhotos) throw tooMany('/add');
  let order = result;
  if (change.order !== undefined) {
    const asked = ids(change.order, (index) => `/order/${index}`);
    const missing = result.filter((id) => !asked.includes(id));
    const foreign = asked.filter((id) => !result.includes(id));
    if (missing.length > 0 || foreign.length > 0)
      throw new AppError('validationFailed', {
        source: { pointer: '/order' },
        detail: 'the order names every photo of the post once, and nothing else',
        meta: { missing, unknown: foreign },
      });
    order = asked;
  }
  const texts = new Map<string, string | null | undefined>();
  for (const [index, photo] of (change.add ?? []).entries()) texts.set(added[index] as string, photo.description);
  const edited = ids(
    (change.photos ?? []).map((photo) => photo.mediaId),
    (index) => `/photos/${index}/mediaId`,
  );
  for (const [index, id] of edited.entries()) {
    if (!result.includes(id)) throw invalid(`/photos/${index}/mediaId`, 'not a photo of this post');
    texts.set(id, change.photos?.[index]?.description ?? null);
  }
  return { order, removed, texts };
}
