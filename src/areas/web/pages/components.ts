/** Pieces the pages share: media cards and grids, the "more" link, breadcrumbs, empty states. */

import { type Locale, translate } from '../../../platform/i18n/i18n.ts';
import { toHex } from '../../../platform/ids/ids.ts';
import { html, type Markup } from '../layout/html.ts';
import type { ShownMedia } from '../web.repository.ts';
import { behindWarning, warningNote } from './content-warning.ts';

export type Translate = (key: string, values?: Record<string, unknown>) => string;
export const translator =
  (locale: Locale): Translate =>
  (key, values) =>
    translate(locale, key, values);

/** A served variant of a media (GET /media/{hex}.webp?size=…): posts, avatars and covers alike. */
export const variantUrl = (mediaId: string, size: 'thumb' | 'small' | 'large') =>
  `/media/${toHex(mediaId)}.webp?size=${size}`;

/** The text a screen reader reads for a photo: its description, else who took it and where. */
export function altText(t: Translate, media: ShownMedia): string {
  const description = media.description?.trim();
  if (description) return description;
  const name = media.ownerNickname ?? media.ownerUsername ?? '';
  return media.cityName ? t('web.media.altIn', { name, place: media.cityName }) : t('web.media.alt', { name });
}

/** A post's page (its carousel): /posts/{hex of its lead}. */
export const postPath = (postId: string) => `/posts/${toHex(postId)}`;
export const profilePath = (username: string) => `/@${encodeURIComponent(username)}`;
export const cityPath = (countryCode: string, cityId: string) =>
  `/travel?country=${countryCode}&city=${encodeURIComponent(cityId)}`;

/** How a grid shows its cards: with their owners or not, and whether sensitive media are blurred. */
export interface GridOptions {
  /** Unique on the page (a page may show one media in two grids): it makes the reveal controls' ids. */
  id: string;
  showOwner?: boolean;
  /** The viewer's blurSensitiveMedia (PageContext), true for visitors. */
  blurSensitive: boolean;
}

export function mediaCard(t: Translate, media: ShownMedia, options: GridOptions) {
  const owner = options.showOwner === false ? null : media.ownerUsername;
  const place =
    media.cityName && media.countryCode && media.cityId
      ? html`<a href=${cityPath(media.countryCode, media.cityId)}>${media.cityName}</a>`
      : null;
  // A post of several photos opens its page (its carousel); a single photo its large variant.
  const several = media.photosCount > 1;
  const photo = html`<a href=${several ? postPath(media.id) : variantUrl(media.id, 'large')}>
    <img
      src=${variantUrl(media.id, 'thumb')}
      srcset=${`${variantUrl(media.id, 'thumb')} 320w, ${variantUrl(media.id, 'small')} 1080w`}
      sizes="(min-width: 900px) 220px, 45vw"
      alt=${altText(t, media)}
      width="320"
      height="320"
      loading="lazy"
      decoding="async"
    />
  </a>`;
  const revealId = `reveal-${options.id}-${toHex(media.id)}`;
  return html`<li>
    <figure class="media-card" data-media=${toHex(media.id)}>
      ${behindWarning(t, media, revealId, options.blurSensitive, photo)}
      <figcaption>
        ${warningNote(t, media, options.blurSensitive)}
        ${several ? html`<span class="media-card__photos">${t('web.post.photos', { count: media.photosCount })}</span>` : null}
        ${[
          owner ? html`<a href=${profilePath(owner)}>${media.ownerNickname ?? owner}</a>` : null,
          place,
          html`<span class="count">${t('web.media.likes', { count: media.likesCount })}</span>`,
        ]
          .filter((part) => part !== null)
          .flatMap((part, index) => (index === 0 ? [part] : [' · ', part]))}
      </figcaption>
    </figure>
  </li>`;
}

export function mediaGrid(t: Translate, media: ShownMedia[], label: string, options: GridOptions) {
  return html`<ul class="media-grid" aria-label=${label}>
    ${media.map((item) => mediaCard(t, item, options))}
  </ul>`;
}

/** The keyset's "more" as a plain link (no script needed): the same page with `cursor`. */
export function moreLink(t: Translate, path: string, query: Record<string, string | undefined>, cursor: string | null) {
  if (cursor === null) return null;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, value);
  params.set('cursor', cursor);
  return html`<p class="more"><a class="button button--primary" rel="next" href=${`${path}?${params}`}>${t('web.more')}</a></p>`;
}

export function breadcrumbs(t: Translate, items: { label: string; href?: string }[]) {
  return html`<nav class="breadcrumbs" aria-label=${t('web.breadcrumbs')}>
    <ol>
      ${items.map((item, index) =>
        item.href && index < items.length - 1
          ? html`<li><a href=${item.href}>${item.label}</a></li>`
          : html`<li aria-current="page">${item.label}</li>`,
      )}
    </ol>
  </nav>`;
}

export const emptyState = (text: Markup) => html`<div class="empty-state" role="status">${text}</div>`;
