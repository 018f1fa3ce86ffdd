/**
 * `renderPage(context, page)`: a whole HTML document in the one layout: head (title, description,
 * canonical link, OpenGraph and Twitter card tags, the site's stylesheet), header (site name, main
 * navigation, the viewer or "Sign in", the language switch), the page's body in `<main>`, and the
 * footer with the data credits. Scripts get the response's nonce; nothing loads from another origin.
 */
import { translate } from '../../../platform/i18n/i18n.ts';
import { html, type Markup, renderMarkup } from './html.ts';
import { liveUnreadCount } from './live-unread-count.ts';
import type { PageContext } from './page-context.ts';
import { siteCssUrl } from './site-css.ts';

/** A script: its same-origin URL, or inline code (sent with the nonce). */
export type PageScript = string | { src?: string; code?: string; module?: boolean };
/** A stylesheet: its same-origin URL, or inline CSS (sent with the nonce). */
export type PageStyle = string | { href?: string; code?: string };

export interface PageOptions {
  /** The page's own title; the document title appends the site's name. */
  title: string;
  description: string;
  /** The page's canonical path (query included when it names the content), e.g. `/@ana`. */
  canonicalPath: string;
  body: Markup;
  scripts?: readonly PageScript[];
  styles?: readonly PageStyle[];
  /** The body fills the window below the header (the explorer's map); the footer is left out. */
  fullScreen?: boolean;
  /** An image for link previews (a same-origin path or absolute URL). */
  image?: { url: string; alt: string } | null;
  /** OpenGraph type: `website` by default, `profile` for profiles. */
  ogType?: 'website' | 'profile';
  /** Error pages and other pages search engines should not keep. */
  noIndex?: boolean;
  /** Discovery links of the head: the page's feeds and oEmbed (`<link rel="alternate">`). */
  alternates?: readonly PageAlternate[];
}

/** A `<link rel="alternate">`: its media type, a same-origin path or absolute URL, and a title. */
export interface PageAlternate {
  type: string;
  href: string;
  title?: string;
}

export const navigation = [
  { path: '/explorer', key: 'web.nav.explorer' },
  { path: '/travel', key: 'web.nav.travel' },
  { path: '/sustainable-tourism', key: 'web.nav.sustainable' },
  { path: '/how-it-works', key: 'web.nav.howItWorks' },
  { path: '/commissions', key: 'web.nav.commissions' },
] as const;

const ogLocale = { 'en-US': 'en_US', 'fr-FR': 'fr_FR' } as const;
const languages = [
  { locale: 'en-US', lang: 'en', label: 'English' },
  { locale: 'fr-FR', lang: 'fr', label: 'Français' },
] as const;

const absolute = (baseUrl: string, url: string) => (/^https?:\/\//.test(url) ? url : `${baseUrl}${url}`);
/** A `</script` or `</style` in inline code would end the element early. */
const safeInline = (code: string) => code.replace(/<\/(script|style)/gi, '<\\/$1');

function header(context: PageContext) {
  const t = (key: string, values?: Record<string, unknown>) => translate(context.locale, key, values);
  const current = context.path;
  const next = current === '/' || current === '/login' ? '' : `?next=${encodeURIComponent(context.url)}`;
  return html`<header class="site-header">
    <div class="site-header__inner">
      <a class="site-name" href="/">${t('web.siteName')}</a>
      <nav class="site-nav" aria-label=${t('web.nav.label')}>
        <ul>
          ${navigation.map(
            (item) =>
              html`<li><a href=${item.path} aria-current=${current === item.path ? 'page' : undefined}>${t(item.key)}</a></li>`,
          )}
        </ul>
      </nav>
      <div class="site-account">
        ${
          context.viewer
            ? html`<a class="site-account__me" href=${`/@${context.viewer.username}`}>${context.viewer.nickname}</a>
                ${liveUnreadCount(context)}
                <a class="site-account__security" href="/security">${t('web.account.security')}</a>
                <form method="post" action="/logout" class="site-account__logout">
                  <button type="submit">${t('web.account.signOut')}</button>
                </form>`
            : html`<a class="button" href=${`/login${next}`}>${t('web.account.signIn')}</a>`
        }
      </div>
      <nav class="site-languages" aria-label=${t('web.languages.label')}>
        <ul>
          ${languages.map(
            (language) =>
              html`<li><a href=${`/language/${language.locale}?next=${encodeURIComponent(context.url)}`}
                hreflang=${language.lang} lang=${language.lang}
                aria-current=${language.locale === context.locale ? 'true' : undefined}>${language.label}</a></li>`,
          )}
        </ul>
      </nav>
    </div>
  </header>`;
}

function footer(context: PageContext) {
  const t = (key: string) => translate(context.locale, key);
  return html`<footer class="site-footer">
    <div class="site-footer__inner">
      <nav aria-label=${t('web.footer.label')}>
        <ul>
          <li><a href="/how-it-works">${t('web.nav.howItWorks')}</a></li>
          <li><a href="/commissions">${t('web.nav.commissions')}</a></li>
          <li><a href="/sustainable-tourism">${t('web.nav.sustainable')}</a></li>
          <li><a href="/sitemap.xml">${t('web.footer.sitemap')}</a></li>
        </ul>
      </nav>
      <p class="site-footer__credits">${t('web.footer.credits')}</p>
    </div>
  </footer>`;
}

function scriptTag(script: PageScript, nonce: string) {
  const spec = typeof script === 'string' ? { src: script } : script;
  const type = spec.module ? 'module' : undefined;
  if (spec.code !== undefined)
    return html`<script nonce=${nonce} type=${type} dangerouslySetInnerHTML=${{ __html: safeInline(spec.code) }}></script>`;
  return html`<script nonce=${nonce} type=${type} src=${spec.src} defer=${spec.module ? undefined : true}></script>`;
}

function styleTag(style: PageStyle, nonce: string) {
  const spec = typeof style === 'string' ? { href: style } : style;
  if (spec.code !== undefined)
    return html`<style nonce=${nonce} dangerouslySetInnerHTML=${{ __html: safeInline(spec.code) }}></style>`;
  return html`<link rel="stylesheet" href=${spec.href} />`;
}

export function renderPage(context: PageContext, page: PageOptions): string {
  const t = (key: string) => translate(context.locale, key);
  const siteName = t('web.siteName');
  const canonical = absolute(context.baseUrl, page.canonicalPath);
  const image = page.image ? { url: absolute(context.baseUrl, page.image.url), alt: page.image.alt } : null;
  const lang = context.locale.split('-')[0];
  const document = html`<html lang=${lang}>
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>${page.title === siteName ? siteName : `${page.title} · ${siteName}`}</title>
      <meta name="description" content=${page.description} />
      ${page.noIndex ? html`<meta name="robots" content="noindex" />` : null}
      <link rel="canonical" href=${canonical} />
      <link rel="icon" href="data:," />
      ${(page.alternates ?? []).map(
        (link) =>
          html`<link rel="alternate" type=${link.type} href=${absolute(context.baseUrl, link.href)} title=${link.title} />`,
      )}
      <meta property="og:site_name" content=${siteName} />
      <meta property="og:type" content=${page.ogType ?? 'website'} />
      <meta property="og:title" content=${page.title} />
      <meta property="og:description" content=${page.description} />
      <meta property="og:url" content=${canonical} />
      <meta property="og:locale" content=${ogLocale[context.locale]} />
      ${image ? html`<meta property="og:image" content=${image.url} /><meta property="og:image:alt" content=${image.alt} />` : null}
      <meta name="twitter:card" content=${image ? 'summary_large_image' : 'summary'} />
      <meta name="twitter:title" content=${page.title} />
      <meta name="twitter:description" content=${page.description} />
      ${image ? html`<meta name="twitter:image" content=${image.url} /><meta name="twitter:image:alt" content=${image.alt} />` : null}
      <link rel="stylesheet" href=${siteCssUrl} />
      ${(page.styles ?? []).map((style) => styleTag(style, context.nonce))}
      ${(page.scripts ?? []).map((script) => scriptTag(script, context.nonce))}
    </head>
    <body class=${page.fullScreen ? 'layout layout--full' : 'layout'}>
      <a class="skip-link" href="#main">${t('web.skipToContent')}</a>
      ${header(context)}
      <main id="main" class="site-main" tabindex="-1">${page.body}</main>
      ${page.fullScreen ? null : footer(context)}
    </body>
  </html>`;
  return `<!doctype html>\n${renderMarkup(document)}`;
}
