/** GET /@{username}: a public profile: cover, avatar, names, counts, level, title, badges, public media. */

import { formatCount } from '../../../platform/i18n/locale-formats.ts';
import { presentProgress, presentUserBadge } from '../../gamification/public.ts';
import { oembedPath, profileFeedPath } from '../../syndication/public.ts';
import { tripTitle } from '../../trips/public.ts';
import { html } from '../layout/html.ts';
import type { PageContext } from '../layout/page-context.ts';
import { renderPage } from '../layout/render-page.ts';
import { tripPath, tripPhoto } from '../trips/trip-page.ts';
import type { ProfileView } from '../web-pages.service.ts';
import { emptyState, mediaGrid, moreLink, profilePath, translator, variantUrl } from './components.ts';

export function renderProfile(context: PageContext, view: ProfileView): string {
  const t = translator(context.locale);
  const { user, counts } = view;
  const progress = presentProgress(view.progress, context.locale);
  const badges = view.badges.map((row) => presentUserBadge(row, context.locale).attributes);
  const number = (value: number) => formatCount(context.locale, value);
  const stats = [
    { key: 'posts', value: counts.posts },
    { key: 'followers', value: counts.followers },
    { key: 'following', value: counts.following },
    { key: 'likes', value: counts.likesReceived },
  ];
  const avatar = user.avatarMediaId
    ? html`<img class="profile-avatar" src=${variantUrl(user.avatarMediaId, 'thumb')} alt=${t('web.profile.avatar', { name: user.nickname })} width="112" height="112" />`
    : html`<span class="profile-avatar profile-avatar--empty" aria-hidden="true">${[...user.nickname][0]?.toUpperCase()}</span>`;
  const body = html`
    <div class="profile-cover">
      ${user.coverMediaId ? html`<img src=${variantUrl(user.coverMediaId, 'small')} alt=${t('web.profile.cover', { name: user.nickname })} />` : null}
    </div>
    <div class="profile-head">
      ${avatar}
      <div class="profile-names">
        <h1>${user.nickname}</h1>
        <p>@${user.username}${user.verified ? html` · <span>${t('web.profile.verified')}</span>` : null}</p>
      </div>
    </div>
    <ul class="profile-stats" aria-label=${t('web.profile.statsLabel')}>
      ${stats.map((stat) => html`<li><strong>${number(stat.value)}</strong> ${t(`web.profile.${stat.key}`, { count: stat.value })}</li>`)}
    </ul>
    <p>
      ${t('web.profile.level', { level: progress.level, experience: number(progress.experience) })}
      ${progress.title ? html` · <strong>${progress.title.label}</strong>` : null}
    </p>
    ${
      badges.length > 0
        ? html`<section aria-labelledby="profile-badges">
            <h2 id="profile-badges">${t('web.profile.badges')}</h2>
            <ul class="badge-list">
              ${badges.map((badge) => html`<li>${t('web.profile.badge', { label: badge.label, level: badge.level, maxLevel: badge.maxLevel })}</li>`)}
            </ul>
          </section>`
        : null
    }
    ${
      view.trips.length > 0
        ? html`<section aria-labelledby="profile-trips">
            <h2 id="profile-trips">${t('trips.profile.heading')}</h2>
            <ul class="trip-cards" aria-label=${t('trips.profile.label', { name: user.nickname })}>
              ${view.trips.map((trip) => {
                const title = tripTitle(trip, context.locale);
                const [cover] = trip.photos;
                return html`<li class="trip-card">
                  ${cover ? tripPhoto(t, cover, title, context.blurSensitiveMedia, 'profile-trip') : null}
                  <a href=${tripPath(trip.trip.id)}>${title}</a>
                  <span class="count">${t('trips.profile.photos', { count: trip.photos.length })}</span>
                </li>`;
              })}
            </ul>
          </section>`
        : null
    }
    <section aria-labelledby="profile-media">
      <h2 id="profile-media">${t('web.profile.media')}</h2>
      ${
        view.media.items.length > 0
          ? mediaGrid(t, view.media.items, t('web.profile.mediaOf', { name: user.nickname }), {
              id: 'profile',
              showOwner: false,
              blurSensitive: context.blurSensitiveMedia,
            })
          : emptyState(t('web.profile.noMedia'))
      }
      ${moreLink(t, profilePath(user.username), {}, view.media.nextCursor)}
    </section>`;
  return renderPage(context, {
    title: t('web.profile.title', { name: user.nickname, username: user.username }),
    description: t('web.profile.description', { name: user.nickname, count: counts.posts }),
    canonicalPath: profilePath(user.username),
    body,
    ogType: 'profile',
    alternates: [
      { type: 'application/rss+xml', href: profileFeedPath(user.username, 'rss'), title: `${user.nickname} (RSS)` },
      { type: 'application/atom+xml', href: profileFeedPath(user.username, 'atom'), title: `${user.nickname} (Atom)` },
      {
        type: 'application/json+oembed',
        href: oembedPath(`${context.baseUrl}${profilePath(user.username)}`),
        title: user.nickname,
      },
    ],
    image: user.avatarMediaId
      ? { url: variantUrl(user.avatarMediaId, 'small'), alt: t('web.profile.avatar', { name: user.nickname }) }
      : null,
  });
}
