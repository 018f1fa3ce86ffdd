/**
 * The page a share link opens (GET /s/{token}): the target alone, for anyone holding the link. It
 * shows the title (a collection's name), the caption (a post's description), each photo (its large
 * variant, its description as alt text and caption, its capture date, behind its content warning) and
 * a line saying the page was shared by a private link. Nothing else of the owner: no name linking to
 * their profile, no counts, no other photo, no place linking elsewhere. A link with a password shows
 * its form first (POST /s/{token}).
 */
import { formatDay } from '../../../platform/i18n/locale-formats.ts';
import type { SharedPhoto, SharedView } from '../../share-links/public.ts';
import { html } from '../layout/html.ts';
import type { PageContext } from '../layout/page-context.ts';
import { renderPage } from '../layout/render-page.ts';
import { emptyState, type Translate, translator, variantUrl } from '../pages/components.ts';
import { behindWarning } from '../pages/content-warning.ts';

export const sharePath = (token: string) => `/s/${encodeURIComponent(token)}`;

function sharedPhoto(t: Translate, context: PageContext, photo: SharedPhoto, index: number, caption: string | null) {
  const alt = photo.description?.trim() || t('web.share.photo', { number: index + 1 });
  const image = html`<img
    src=${variantUrl(photo.mediaId, 'large')}
    srcset=${`${variantUrl(photo.mediaId, 'small')} 1080w, ${variantUrl(photo.mediaId, 'large')} 2048w`}
    sizes="(min-width: 900px) 860px, 100vw"
    alt=${alt}
    width=${photo.width ?? undefined}
    height=${photo.height ?? undefined}
    loading=${index === 0 ? undefined : 'lazy'}
    decoding="async"
  />`;
  // A post of one photo: its description is the page's caption already.
  const description = photo.description === caption ? null : photo.description;
  const taken = photo.takenAt ? formatDay(context.locale, photo.takenAt, 'long') : null;
  return html`<li>
    <figure class="shared__photo">
      ${behindWarning(t, photo, `reveal-shared-${index}`, context.blurSensitiveMedia, image)}
      ${
        description || taken
          ? html`<figcaption>${description}${description && taken ? ' · ' : null}${taken ? t('web.share.taken', { date: taken }) : null}</figcaption>`
          : null
      }
    </figure>
  </li>`;
}

export function renderSharedPage(context: PageContext, token: string, view: SharedView): string {
  const t = translator(context.locale);
  const title = view.title ?? t(`web.share.title.${view.kind === 'collection' ? 'collection' : 'other'}`);
  const body = html`<article class="shared">
    <h1>${title}</h1>
    <p class="lead">${t('web.share.note')}</p>
    ${view.caption ? html`<p class="shared__caption">${view.caption}</p>` : null}
    ${
      view.photos.length > 0
        ? html`<ul class="shared__photos" aria-label=${t('web.share.photos')}>${view.photos.map((photo, index) => sharedPhoto(t, context, photo, index, view.caption))}</ul>`
        : emptyState(t('web.share.empty'))
    }
  </article>`;
  const [first] = view.photos;
  return renderPage(context, {
    title,
    description: t('web.share.note'),
    canonicalPath: sharePath(token),
    body,
    noIndex: true,
    image: first ? { url: variantUrl(first.mediaId, 'large'), alt: first.description ?? title } : null,
  });
}

export function renderPasswordPage(context: PageContext, token: string, wrongPassword: boolean): string {
  const t = translator(context.locale);
  const body = html`<section class="shared shared--locked" aria-labelledby="shared-locked">
    <h1 id="shared-locked">${t('web.share.locked')}</h1>
    <p class="lead">${t('web.share.lockedLead')}</p>
    <form class="form shared__form" method="post" action=${sharePath(token)}>
      ${wrongPassword ? html`<p class="form-error" role="alert">${t('web.share.wrongPassword')}</p>` : null}
      <div class="field">
        <label for="share-password">${t('web.share.password')}</label>
        <input id="share-password" name="password" type="password" autocomplete="off" required maxlength="128" />
      </div>
      <button type="submit" class="button button--primary">${t('web.share.open')}</button>
    </form>
  </section>`;
  return renderPage(context, {
    title: t('web.share.locked'),
    description: t('web.share.lockedLead'),
    canonicalPath: sharePath(token),
    body,
    noIndex: true,
  });
}
