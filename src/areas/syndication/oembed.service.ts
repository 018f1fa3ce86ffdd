/**
 * oEmbed 1.0 (https://oembed.com): the JSON answer for a page of this site. A URL of another origin,
 * of no page oEmbed knows, or of content that is not public is 404; any format but json is 501. The
 * answer fits `maxwidth` and `maxheight`: a `photo` names the largest served variant that fits (else
 * the thumbnail's size scaled down), a `rich` answer the card's iframe at its width or narrower (its
 * height at that width, or maxheight).
 */
import { AppError } from '../../platform/http/error-catalogue.ts';
import { type Locale, translate } from '../../platform/i18n/i18n.ts';
import { escapeHtml } from '../../platform/text/escape-html.ts';
import { mediaVariantUrls } from '../media/public.ts';
import type { OEmbedKinds, OEmbedSubject } from './oembed-kinds.ts';

/** How long a consumer may keep an answer, in seconds (oEmbed's cache_age). */
export const oembedCacheAge = 3600;

export interface OEmbedRequest {
  url: string;
  maxwidth?: number;
  maxheight?: number;
}

export interface OEmbedAnswer {
  version: '1.0';
  type: 'photo' | 'rich';
  title: string;
  author_name?: string;
  author_url?: string;
  provider_name: string;
  provider_url: string;
  cache_age: number;
  width: number;
  height: number;
  url?: string;
  html?: string;
  thumbnail_url?: string;
  thumbnail_width?: number;
  thumbnail_height?: number;
}

const thumbLongest = 320;

/** The served variants, largest first, and their longest side (GET /media: large 2048, small 1080, thumb 320). */
const variants = [
  { size: 'large', longest: 2048 },
  { size: 'small', longest: 1080 },
  { size: 'thumb', longest: thumbLongest },
] as const;

/** Scaled so that neither side passes its bound (never enlarged). */
function fit(width: number, height: number, maxWidth = Number.POSITIVE_INFINITY, maxHeight = Number.POSITIVE_INFINITY) {
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}

const variantSize = (image: { width: number; height: number }, longest: number) =>
  fit(image.width, image.height, longest, longest);

const notFound = (detail: string) => new AppError('notFound', { source: { parameter: 'url' }, detail });

export class OEmbedService {
  readonly #kinds: OEmbedKinds;

  constructor(kinds: OEmbedKinds) {
    this.#kinds = kinds;
  }

  /** Where areas register a kind of page oEmbed answers for. */
  get kinds(): OEmbedKinds {
    return this.#kinds;
  }

  async answer(request: OEmbedRequest, baseUrl: string, locale: Locale): Promise<OEmbedAnswer> {
    let page: URL;
    try {
      page = new URL(request.url);
    } catch {
      throw notFound('not a URL');
    }
    if (page.origin !== new URL(baseUrl).origin) throw notFound('not a page of this site');
    const found = this.#kinds.match(page.pathname);
    if (found === null) throw notFound('not a page oEmbed knows');
    const subject = await found.kind.resolve(found.key, locale);
    if (subject === null) throw notFound('nothing public at this URL');
    return this.#present(subject, request, baseUrl, locale);
  }

  #present(subject: OEmbedSubject, request: OEmbedRequest, baseUrl: string, locale: Locale): OEmbedAnswer {
    const base: OEmbedAnswer = {
      version: '1.0',
      type: subject.type,
      title: subject.title,
      ...(subject.author ? { author_name: subject.author.name, author_url: `${baseUrl}${subject.author.path}` } : {}),
      provider_name: translate(locale, 'syndication.providerName'),
      provider_url: `${baseUrl}/`,
      cache_age: oembedCacheAge,
      width: 0,
      height: 0,
    };
    const cardWidth = Math.min(subject.card.width, request.maxwidth ?? subject.card.width);
    const card = {
      width: cardWidth,
      height: Math.min(subject.card.heightAt(cardWidth), request.maxheight ?? Number.POSITIVE_INFINITY),
    };
    const iframe = `<iframe src="${escapeHtml(`${baseUrl}${subject.cardPath}`)}" width="${card.width}" height="${card.height}" title="${escapeHtml(subject.title)}" loading="lazy" frameborder="0" scrolling="no" sandbox="allow-popups allow-popups-to-escape-sandbox"></iframe>`;
    const { image } = subject;
    const urls = image === null ? null : mediaVariantUrls({ id: image.mediaId, originalFormat: image.originalFormat });
    const thumbnail =
      image === null || urls === null
        ? {}
        : {
            thumbnail_url: `${baseUrl}${urls.thumb}`,
            thumbnail_width: variantSize(image, thumbLongest).width,
            thumbnail_height: variantSize(image, thumbLongest).height,
          };
    if (subject.type === 'photo' && image !== null && urls !== null) {
      const chosen =
        variants.find(({ longest }) => {
          const size = variantSize(image, longest);
          return (
            size.width <= (request.maxwidth ?? Number.POSITIVE_INFINITY) &&
            size.height <= (request.maxheight ?? Number.POSITIVE_INFINITY)
          );
        }) ?? variants[2];
      const stored = variantSize(image, chosen.longest);
      const shown = fit(stored.width, stored.height, request.maxwidth, request.maxheight);
      return { ...base, ...shown, url: `${baseUrl}${urls[chosen.size]}`, html: iframe, ...thumbnail };
    }
    return { ...base, type: 'rich', ...card, html: iframe, ...thumbnail };
  }
}
