/**
 * The explorer's photo panel: one public photo (its large variant, description, author and place),
 * rendered as an HTML fragment the map's script puts in its dialog. It shows what the API shows of a
 * public media: nothing of a media that is not public, no place when the owner keeps it private.
 */

import { type Locale, translate } from '../../../platform/i18n/i18n.ts';
import { toHex } from '../../../platform/ids/ids.ts';
import { isActiveUser } from '../../accounts/read-model.ts';
import type { MediaServices } from '../../media/public.ts';
import { mediaVariantUrls } from '../../media/public.ts';
import { html, type Markup } from '../layout/html.ts';
import { type CarouselPhoto, carousel } from '../pages/carousel.ts';
import { behindWarning, warningNote } from '../pages/content-warning.ts';
import type { PhotoPanelSources } from '../public.ts';

type VisibleMedia = NonNullable<Awaited<ReturnType<MediaServices['media']['findVisibleMedia']>>>;

export interface PhotoPanel {
  media: VisibleMedia;
  /** The photos of its post when it has several (media's posts), shown as a carousel; else empty. */
  photos: CarouselPhoto[];
  author: { username: string | null; name: string } | null;
  place: string | null;
}

/**
 * The photo and what the panel says of it, or null when it is not a public post, or when the viewer
 * signed in on the web and its owner block each other (either way: accounts' rule).
 */
export async function loadPhotoPanel(
  sources: PhotoPanelSources,
  mediaId: string,
  locale: Locale,
  viewerId: string | null = null,
): Promise<PhotoPanel | null> {
  const found = await sources.media.findVisibleMedia(mediaId, null);
  // A photo of a post of several stands for its post (the lead holds its text and counts).
  const media =
    found !== null && found.postId !== null && found.postId !== found.id
      ? await sources.media.findVisibleMedia(found.postId, null)
      : found;
  if (media === null || (await sources.users.blockedEitherWay(viewerId, media.ownerId))) return null;
  const photos = media.photosCount > 1 ? (await sources.posts.find(media.id, null)).photos : [];
  const owner = await sources.users.find(media.ownerId);
  const shown = owner !== null && isActiveUser(owner);
  const name = shown ? (owner.nickname ?? owner.username) : null;
  const author = shown && name !== null ? { username: owner.username, name } : null;
  return { media, photos, author, place: media.locationPublic ? await placeName(sources, media, locale) : null };
}

async function placeName(sources: PhotoPanelSources, media: VisibleMedia, locale: Locale): Promise<string | null> {
  const { geography } = sources;
  const [city, country] = await Promise.all([
    media.cityId === null ? null : geography.city(media.cityId),
    media.countryCode === null ? null : geography.country(media.countryCode),
  ]);
  const countryName = country === null ? null : locale === 'fr-FR' ? country.nameFr : country.nameEn;
  const parts = [city?.name ?? null, countryName].filter((part): part is string => part !== null && part !== '');
  return parts.length > 0 ? parts.join(', ') : null;
}

export function photoPanelMarkup(panel: PhotoPanel, locale: Locale, blurSensitive: boolean): Markup {
  const t = (key: string, values?: Record<string, unknown>) => translate(locale, key, values);
  const { media } = panel;
  const urls = mediaVariantUrls(media);
  const alt = media.description ?? t('explorer.photoFallback');
  const author =
    panel.author === null
      ? t('explorer.panel.anonymous')
      : panel.author.username === null
        ? panel.author.name
        : html`<a href=${`/@${panel.author.username}`}>${panel.author.name}</a>`;
  // "By {name}" around the author's link: the message's text on each side of the name.
  const [byBefore = '', byAfter = ''] = t('explorer.panel.by', { name: '\u0000' }).split('\u0000');
  const photo = html`<img src=${urls.large} alt=${alt} width=${media.width} height=${media.height} decoding="async" />`;
  const shown =
    panel.photos.length > 1
      ? carousel(t, panel.photos, {
          id: 'panel',
          label: t('web.post.carousel', { name: panel.author?.name ?? t('explorer.panel.anonymous') }),
          blurSensitive,
          fallbackAlt: alt,
        })
      : behindWarning(t, media, `reveal-panel-${toHex(media.id)}`, blurSensitive, photo);
  return html`<figure class="photo-panel__figure" data-media=${toHex(media.id)}>
    ${shown}
    <figcaption>
      ${warningNote(t, media, blurSensitive)}
      <h2 id="photo-panel-title" class="photo-panel__place">${panel.place ?? t('explorer.panel.unknownPlace')}</h2>
      ${media.description ? html`<p class="photo-panel__description">${media.description}</p>` : null}
      <p class="photo-panel__author">${byBefore}${author}${byAfter}</p>
      <p class="photo-panel__meta">
        ${t('explorer.panel.likes', { count: media.likesCount })}
        ${media.takenAt ? html` · ${t('explorer.panel.taken', { date: media.takenAt })}` : null}
      </p>
    </figcaption>
  </figure>`;
}
