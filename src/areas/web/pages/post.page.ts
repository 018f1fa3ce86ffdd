/** GET /posts/{postId}: a post's photos as a carousel, its caption, its author and its counts. */
import { oembedPath, profileFeedPath } from '../../syndication/public.ts';
import { assetUrl } from '../assets/client-assets.ts';
import { html } from '../layout/html.ts';
import type { PageContext } from '../layout/page-context.ts';
import { renderPage } from '../layout/render-page.ts';
import type { PostView } from '../web-pages.service.ts';
import { carousel } from './carousel.ts';
import { postPath, profilePath, translator, variantUrl } from './components.ts';
import { warningNote } from './content-warning.ts';

export function renderPost(context: PageContext, { post, owner }: PostView): string {
  const t = translator(context.locale);
  const { lead, photos } = post;
  const name = owner.nickname;
  const fallbackAlt = t('web.media.alt', { name });
  const first = photos[0];
  const body = html`
    <article class="post">
      <p><a href=${profilePath(owner.username)}>${name}</a> · @${owner.username}</p>
      ${warningNote(t, lead, context.blurSensitiveMedia)}
      ${carousel(t, photos, {
        id: 'post',
        label: t('web.post.carousel', { name }),
        blurSensitive: context.blurSensitiveMedia,
        fallbackAlt,
      })}
      ${lead.description ? html`<p class="post__caption">${lead.description}</p>` : null}
      <p class="count">
        ${t('web.media.likes', { count: lead.likesCount })} · ${t('web.post.comments', { count: lead.commentsCount })}
      </p>
    </article>`;
  return renderPage(context, {
    title: t('web.post.title', { name }),
    description: lead.description ?? t('web.post.description', { name, count: photos.length }),
    canonicalPath: postPath(lead.id),
    body,
    // The author's feeds (where the post appears) and oEmbed for this page.
    alternates: [
      { type: 'application/rss+xml', href: profileFeedPath(owner.username, 'rss'), title: `${name} (RSS)` },
      { type: 'application/atom+xml', href: profileFeedPath(owner.username, 'atom'), title: `${name} (Atom)` },
      {
        type: 'application/json+oembed',
        href: oembedPath(`${context.baseUrl}${postPath(lead.id)}`),
        title: t('web.post.title', { name }),
      },
    ],
    // The carousel's keys; it swipes and scrolls without it.
    scripts: [assetUrl('carousel.js')],
    image:
      first === undefined || lead.authorSensitive
        ? null
        : { url: variantUrl(first.id, 'large'), alt: first.altText ?? fallbackAlt },
  });
}
