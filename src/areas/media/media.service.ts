/** The rules of media: who sees what, uploads, descriptions, deletion. */
import { parseUuidOrHex } from '../../platform/http/ids.ts';
import { isPubliclyVisible } from './media-flags.ts';
import type { MediaRepository } from './media.repository.ts';
import type { MediaRow } from './tables.ts';

export class MediaService {
  constructor(private readonly repository: MediaRepository) {}

  /**
   * The shared read API for other areas (reactions, bookmarks, comments): a media post by UUID or
   * 32-hex id, or null when it does not exist or the viewer may not see it. Visible means published
   * and not hidden by a moderation flag, or owned by the viewer. Avatars and covers are not posts and
   * are never returned here.
   */
  async findVisibleMedia(mediaIdOrHex: string, viewerId: string | null): Promise<MediaRow | null> {
    const id = parseUuidOrHex(mediaIdOrHex);
    if (id === null) return null;
    const row = await this.repository.findPostById(id);
    if (row === null) return null;
    if (row.ownerId === viewerId || isPubliclyVisible(row)) return row;
    return null;
  }
}
