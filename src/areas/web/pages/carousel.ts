/**
 * A post's photos as a carousel (media's posts: docs/api.md, Posts), with no script: a list scrolled
 * sideways with CSS scroll snapping (site.css, .carousel), so a finger swipes it, the keyboard's arrows
 * move it one photo at a time once it has the focus (it is focusable), and each photo has a numbered
 * link to it. Without CSS it is a plain list of the photos, one under the other.
 */
import { toHex } from '../../../platform/ids/ids.ts';
import { html } from '../layout/html.ts';
import type { Translate } from './components.ts';
import { behindWarning } from './content-warning.ts';

/** What the carousel reads of a photo. */
export interface CarouselPhoto {
  id: string;
  altText: string | null;
  width: number;
  height: number;
  authorSensitive: boolean;
  contentWarning: string | null;
}

export interface CarouselOptions {
  /** Unique on the page: it makes the slides' anchors and the reveal controls' ids. */
  id: string;
  /** What the carousel is, for screen readers (e.g. "Photos of the post by Ada"). */
  label: string;
  /** The viewer's blurSensitiveMedia (PageContext), true for visitors. */
  blurSensitive: boolean;
  /** The text a photo without its own is read as. */
  fallbackAlt: string;
}

export function carousel(t: Translate, photos: CarouselPhoto[], options: CarouselOptions) {
  const slideId = (index: number) => `${options.id}-photo-${index + 1}`;
  const count = photos.length;
  const slides = photos.map((photo, index) => {
    const hex = toHex(photo.id);
    const image = html`<img
      src=${`/media/${hex}.webp?size=large`}
      alt=${photo.altText ?? options.fallbackAlt}
      width=${photo.width}
      height=${photo.height}
      loading=${index === 0 ? 'eager' : 'lazy'}
      decoding="async"
    />`;
    return html`<li class="carousel__slide" id=${slideId(index)} aria-roledescription="slide"
      aria-label=${t('web.post.slide', { position: index + 1, count })}>
      <figure data-media=${hex}>
        ${behindWarning(t, photo, `reveal-${options.id}-${hex}`, options.blurSensitive, image)}
        ${photo.altText ? html`<figcaption>${photo.altText}</figcaption>` : null}
      </figure>
    </li>`;
  });
  return html`<section class="carousel" aria-roledescription="carousel" aria-label=${options.label}>
    <ol class="carousel__track" tabindex="0" aria-label=${t('web.post.swipe', { count })}>
      ${slides}
    </ol>
    ${
      count > 1
        ? html`<nav class="carousel__dots" aria-label=${t('web.post.photosNav')}>
            ${photos.map((_, index) => html`<a class="carousel__dot" href=${`#${slideId(index)}`} aria-label=${t('web.post.slide', { position: index + 1, count })}>${index + 1}</a>`)}
          </nav>`
        : null
    }
  </section>`;
}
