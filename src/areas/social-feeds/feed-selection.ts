/**
 * What a feed selects, from the body of POST /api/users/me/social-feeds: trimmed and folded, every
 * problem reported at once (one error per field or list element). A feed selects by criteria
 * (hashtags, countryCode, cityId: a media matches every one given) or by hand (mediaIds), never both.
 * Whether the mediaIds are the caller's own posts, and the city exists, is checked by the service.
 */
import { AppError } from '../../platform/http/error-catalogue.ts';
import { isCanonicalUuid, parseUuidOrHex } from '../../platform/ids/ids.ts';
import { countryCodes } from '../../platform/text/country-codes.ts';
import { normaliseHashtags } from '../../platform/text/hashtags.ts';

export const feedLimits = {
  nameMaxLength: 80,
  descriptionMaxLength: 500,
  maxHashtags: 10,
  maxMediaIds: 100,
  maxFeedsPerUser: 50,
} as const;

export interface FeedInput {
  name: string;
  description?: string | null | undefined;
  hashtags?: string[] | null | undefined;
  countryCode?: string | null | undefined;
  cityId?: string | null | undefined;
  mediaIds?: string[] | null | undefined;
}

export interface FeedSelection {
  name: string;
  description: string | null;
  /** null: no such criterion. */
  hashtags: string[] | null;
  countryCode: string | null;
  cityId: string | null;
  /** null for a feed by criteria; the hand-picked media otherwise (canonical UUIDs, no repeats). */
  mediaIds: string[] | null;
}

const invalid = (pointer: string, detail: string, meta?: Record<string, unknown>) =>
  new AppError('validationFailed', { source: { pointer }, detail, ...(meta ? { meta } : {}) });

const length = (text: string) => [...text].length;

export function readFeedSelection(input: FeedInput): { selection: FeedSelection; errors: AppError[] } {
  const errors: AppError[] = [];
  const name = input.name.trim();
  if (length(name) < 1 || length(name) > feedLimits.nameMaxLength) {
    errors.push(invalid('/name', `must be 1 to ${feedLimits.nameMaxLength} characters once trimmed`));
  }
  const description = input.description?.trim() || null;
  if (description !== null && length(description) > feedLimits.descriptionMaxLength) {
    errors.push(invalid('/description', `at most ${feedLimits.descriptionMaxLength} characters`));
  }
  const hashtags = input.hashtags?.length ? normaliseHashtags(input.hashtags) : null;

  let countryCode: string | null = null;
  if (input.countryCode !== undefined && input.countryCode !== null) {
    countryCode = input.countryCode.toUpperCase();
    if (!countryCodes.has(countryCode)) {
      errors.push(invalid('/countryCode', 'must be an ISO 3166-1 alpha-2 country code'));
      countryCode = null;
    }
  }
  let cityId: string | null = null;
  if (input.cityId !== undefined && input.cityId !== null) {
    if (isCanonicalUuid(input.cityId)) cityId = input.cityId.toLowerCase();
    else errors.push(invalid('/cityId', 'must be a UUID'));
  }

  let mediaIds: string[] | null = null;
  if (input.mediaIds?.length) {
    const ids = input.mediaIds.map((raw, index) => {
      const id = parseUuidOrHex(raw);
      if (id === null) errors.push(invalid(`/mediaIds/${index}`, 'must be a media id (UUID or 32 hex digits)'));
      return id;
    });
    mediaIds = [...new Set(ids.filter((id) => id !== null))];
    if (hashtags !== null || input.countryCode != null || input.cityId != null) {
      errors.push(
        invalid('/mediaIds', 'a hand-picked feed takes no hashtags, countryCode or cityId: choose one or the other'),
      );
    }
  }
  return { selection: { name, description, hashtags, countryCode, cityId, mediaIds }, errors };
}
