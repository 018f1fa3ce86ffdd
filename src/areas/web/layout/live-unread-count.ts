/**
 * The header's unread notification count: rendered with the page, then kept current by an
 * EventSource on the notification stream (the session cookie authenticates it; docs/api.md, The live
 * stream). Without the stream (no EventSource, a proxy that cuts it, offline) the rendered count stays.
 * The script is inline with the page's nonce: nothing loads from elsewhere.
 */
import { translate } from '../../../platform/i18n/i18n.ts';
import { html } from './html.ts';
import type { PageContext } from './page-context.ts';

const streamPath = '/api/users/me/notifications/stream';

/** Sets the badge's number from each `unreadCount` event; the browser reconnects by itself (retry, Last-Event-ID). */
const script = `(function () {
  var badge = document.querySelector('[data-unread-count]');
  if (!badge || typeof EventSource !== 'function') return;
  var number = badge.querySelector('.unread-count__number');
  var source = new EventSource(${JSON.stringify(streamPath)});
  // data-live says whether the count is live (open) or as rendered (the stream is away, retrying).
  source.addEventListener('open', function () { badge.setAttribute('data-live', 'open'); });
  source.addEventListener('error', function () { badge.setAttribute('data-live', 'away'); });
  source.addEventListener('unreadCount', function (event) {
    var count = JSON.parse(event.data).attributes.count;
    number.textContent = String(count);
    badge.setAttribute('data-unread-count', String(count));
  });
  window.addEventListener('pagehide', function () { source.close(); });
})();`;

export function liveUnreadCount(context: PageContext) {
  if (context.unreadNotifications === null) return null;
  const label = translate(context.locale, 'web.account.unreadNotifications');
  return html`<span class="unread-count" data-unread-count=${String(context.unreadNotifications)} title=${label}>
      <span class="visually-hidden">${label}</span>
      <span class="unread-count__number" aria-live="polite">${String(context.unreadNotifications)}</span>
    </span>
    <script nonce=${context.nonce} dangerouslySetInnerHTML=${{ __html: script }}></script>`;
}
