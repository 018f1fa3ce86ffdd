/**
 * `pageContext(request, viewer)`: what every page needs to render (contract 6 of issue 15): its
 * locale, the response's CSP nonce (and the page's security headers, registered for this request),
 * the viewer's names for the header, and the base URL of absolute links.
 */
import type { FastifyRequest } from 'fastify';
import { setPageSecurityHeaders } from '../../../platform/http/security-headers.ts';
import type { Viewer } from '../../../platform/http/types.ts';
import type { Locale } from '../../../platform/i18n/i18n.ts';
import { type Framing, newNonce, pageSecurityHeaders, tileOrigin } from './csp.ts';
import { pageLocale } from './locale.ts';

export interface PageViewer {
  username: string;
  nickname: string;
}

export interface PageContext {
  locale: Locale;
  /** The nonce of this response: inline scripts and styles carry it (renderPage adds it to scripts). */
  nonce: string;
  viewer: PageViewer | null;
  /** PUBLIC_URL without a trailing slash. */
  baseUrl: string;
  /** The path of the page asked for (no query), for the navigation's current item. */
  path: string;
  /** The path and query asked for, where the language switch and "Sign in" come back to. */
  url: string;
  /** Media marked sensitive are blurred behind their warning: the viewer's setting, true for visitors. */
  blurSensitiveMedia: boolean;
  /** The signed-in viewer's unread notifications, shown (and kept live) in the header; null for visitors. */
  unreadNotifications: number | null;
}

/** What the layout reads of the app: set once by the web area (installLayout). */
export interface LayoutSettings {
  findUser(
    userId: string,
  ): Promise<{ username: string | null; nickname: string | null; blurSensitiveMedia: boolean } | null>;
  mapTileUrl: string | null;
  /** The viewer's unread notification count (the header's badge). */
  unreadNotifications(userId: string): Promise<number>;
}
const settingsByApp = new WeakMap<object, LayoutSettings>();

export function setLayoutSettings(app: object, settings: LayoutSettings): void {
  settingsByApp.set(app, settings);
}

export function layoutSettings(request: FastifyRequest): LayoutSettings | undefined {
  return settingsByApp.get(request.server);
}

/** Whether media marked sensitive are blurred for this viewer: their setting, true for visitors. */
export async function blursSensitiveMedia(request: FastifyRequest, viewer: Viewer | null): Promise<boolean> {
  const settings = layoutSettings(request);
  if (!viewer || !settings) return true;
  return (await settings.findUser(viewer.userId))?.blurSensitiveMedia ?? true;
}

/** `framing: 'anyone'` for the embeddable cards only (csp.ts): every other page refuses to be framed. */
export async function pageContext(
  request: FastifyRequest,
  viewer: Viewer | null,
  { framing = 'none' }: { framing?: Framing } = {},
): Promise<PageContext> {
  const settings = layoutSettings(request);
  const locale = pageLocale(request);
  // Content-Language and translated error titles follow the page's locale, cookie included.
  request.locale = locale;
  const nonce = newNonce();
  const tiles = tileOrigin(settings?.mapTileUrl);
  setPageSecurityHeaders(request, pageSecurityHeaders(nonce, tiles ? [tiles] : [], framing));
  let pageViewer: PageViewer | null = null;
  let blurSensitiveMedia = true;
  let unreadNotifications: number | null = null;
  if (viewer && settings) {
    const user = await settings.findUser(viewer.userId);
    if (user?.username) pageViewer = { username: user.username, nickname: user.nickname ?? user.username };
    if (user) blurSensitiveMedia = user.blurSensitiveMedia;
    if (pageViewer) unreadNotifications = await settings.unreadNotifications(viewer.userId);
  }
  return {
    locale,
    nonce,
    viewer: pageViewer,
    baseUrl: request.server.publicUrl,
    path: request.url.split('?')[0] ?? '/',
    url: request.url,
    blurSensitiveMedia,
    unreadNotifications,
  };
}
