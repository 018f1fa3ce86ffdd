/**
 * The embeddable cards (GET /embed/posts/{id}, GET /embed/@{username}, GET /embed/trips/{id}): a page made to sit in another
 * site's iframe (oEmbed's `html`). No header, navigation or footer, no script, nothing from another
 * origin (the site's stylesheet and the photos are this server's): it works in a sandboxed iframe and
 * offline. Every link opens the site in a new tab. Its CSP lets any site frame it (csp.ts, Framing).
 */
import { translate } from '../../../platform/i18n/i18n.ts';
import { formatCount } from '../../../platform/i18n/locale-formats.ts';
import { toHex } from '../../../platform/ids/ids.ts';
import { mediaVariantUrls } from '../../media/public.ts';
import {
  embedPostPath,
  embedProfilePath,
  oembedPath,
  postPagePath,
  profilePagePath,
} from '../../syndication/public.ts';
import { embedTripPath, tripCities, tripPagePath, tripTitle } from '../../trips/public.ts';
import type { PhotoPanel } from '../explorer/photo-panel.ts';
import { html, type Markup, renderMarkup } from '../layout/html.ts';
import type { PageContext } from '../layout/page-context.ts';
import { siteCssUrl } from '../layout/site-css.ts';
import { carousel } from '../pages/carousel.ts';
import { translator, variantUrl } from '../pages/components.ts';
import { behindWarning, warningNote } from '../pages/content-warning.ts';
import type { TripPage } from '../trips/trip-page.ts';
import type { ProfileView } from '../web-pages.service.ts';

function embedDocument(context: PageContext, title: string, canonicalPath: string, body: Markup): string {
  const canonical = `${context.baseUrl}${canonicalPath}`;
  const siteName = translate(context.locale, 'web.siteName');
  const document = html`<html lang=${context.locale.split('-')[0]}>
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>${`${title} · ${siteName}`}</title>
      <meta name="robots" content="noindex" />
      <link rel="canonical" href=${canonical} />
      <link rel="icon" href="data:," />
      <link rel="alternate" type="application/json+oembed" href=${`${context.baseUrl}${oembedPath(canonical)}`} title=${title} />
      <link rel="stylesheet" href=${siteCssUrl} />
    </head>
    <body class="embed">
      <main class="embed-card">
        ${body}
        <p class="embed-card__site"><a href=${`${context.baseUrl}/`} target="_blank" rel="noopener">${siteName}</a></p>
      </main>
    </body>
  </html>`;
  return `<!doctype html>\n${renderMarkup(document)}`;
}

const outLink = (context: PageContext, path: string, text: Markup) =>
  html`<a href=${`${context.baseUrl}${path}`} target="_blank" rel="noopener">${text}</a>`;

/**
 * A post of several photos shows them all as the post page's carousel (no script: a strip scrolled
 * sideways, numbered links to each photo) and says how many; a post of one, its photo.
 */
function postPhotos(context: PageContext, panel: PhotoPanel): Markup {
  const t = translator(context.locale);
  const { media, photos } = panel;
  if (photos.length > 1) {
    const name = panel.author?.name ?? t('web.embed.photo');
    return html`${warningNote(t, media, context.blurSensitiveMedia)}
      ${carousel(t, photos, {
        id: 'embed',
        label: t('web.post.carousel', { name }),
        blurSensitive: context.blurSensitiveMedia,
        fallbackAlt: t('web.embed.photo'),
      })}
      <p class="embed-card__meta">${outLink(context, postPagePath(media.id), t('web.post.photos', { count: photos.length }))}</p>`;
  }
  const alt = media.description?.trim() || t('web.embed.photo');
  const photo = html`<img src=${mediaVariantUrls(media).small} alt=${alt} width=${media.width} height=${media.height} decoding="async" />`;
  return behindWarning(t, media, `reveal-embed-${toHex(media.id)}`, context.blurSensitiveMedia, photo);
}

export function renderPostEmbed(context: PageContext, panel: PhotoPanel): string {
  const t = translator(context.locale);
  const { media } = panel;
  const author = panel.author?.username
    ? outLink(context, profilePagePath(panel.author.username), panel.author.name)
    : (panel.author?.name ?? null);
  const body = html`<figure class="embed-card__figure" data-media=${toHex(media.id)}>
    ${postPhotos(context, panel)}
    <figcaption>
      ${media.description ? html`<p class="embed-card__text">${media.description}</p>` : null}
      <p class="embed-card__meta">${author}${author && panel.place ? ' · ' : null}${panel.place}</p>
    </figcaption>
  </figure>`;
  return embedDocument(context, media.description?.trim() || t('web.embed.photo'), embedPostPath(media.id), body);
}

export function renderProfileEmbed(context: PageContext, view: ProfileView): string {
  const t = translator(context.locale);
  const { user } = view;
  const body = html`<section class="embed-card__profile" aria-labelledby="embed-profile">
    <div class="embed-card__head">
      ${user.avatarMediaId ? html`<img class="profile-avatar" src=${variantUrl(user.avatarMediaId, 'thumb')} alt="" width="56" height="56" />` : null}
      <div>
        <h1 id="embed-profile">${outLink(context, profilePagePath(user.username), user.nickname)}</h1>
        <p>@${user.username} · ${formatCount(context.locale, view.counts.posts)} ${t('web.profile.posts', { count: view.counts.posts })}</p>
      </div>
    </div>
    <ul class="embed-card__thumbs" aria-label=${t('web.profile.mediaOf', { name: user.nickname })}>
      ${view.media.items
        .filter((item) => !item.authorSensitive)
        .map(
          (item) =>
            html`<li><img src=${variantUrl(item.id, 'thumb')} alt=${item.description?.trim() || t('web.embed.photo')} width="96" height="96" loading="lazy" /></li>`,
        )}
    </ul>
  </section>`;
  return embedDocument(context, `${user.nickname} (@${user.username})`, embedProfilePath(user.username), body);
}

/**
 * A trip's card: its title (linking to its page), its author and dates, its cover (the first photo its
 * author did not mark sensitive, none otherwise), its photo count and its cities. The trip is the one
 * an anonymous visitor sees: its cities, never a position.
 */
export function renderTripEmbed(context: PageContext, { view, owner }: TripPage): string {
  const t = translator(context.locale);
  const title = tripTitle(view, context.locale);
  const cover = view.photos.find((photo) => !photo.authorSensitive);
  const cities = tripCities(view, context.locale);
  const body = html`<article class="embed-card__trip" aria-labelledby="embed-trip">
    ${
      cover
        ? html`<figure class="embed-card__figure embed-card__cover">
            <img src=${variantUrl(cover.id, 'small')} alt=${cover.description?.trim() || t('web.embed.photo')} width=${cover.width} height=${cover.height} decoding="async" />
          </figure>`
        : null
    }
    <h1 id="embed-trip" class="embed-card__title">${outLink(context, tripPagePath(view.trip.id), title)}</h1>
    <p class="embed-card__meta">${outLink(context, profilePagePath(owner.username), t('trips.page.by', { name: owner.nickname }))}${' · '}${t('trips.page.dates', { start: view.startsAt, end: view.endsAt })}</p>
    <p class="embed-card__text">${t('trips.profile.photos', { count: view.photos.length })}${cities ? html`${' · '}${cities}` : null}</p>
  </article>`;
  return embedDocument(context, title, embedTripPath(view.trip.id), body);
}
