/** sitemap.xml (sitemaps.org) and robots.txt. */
import { formatTimestamp } from '../../platform/http/time.ts';
import { escapeXml } from '../../platform/text/escape-xml.ts';
import type { CountryCount } from './web.repository.ts';

/** The pages every sitemap lists. */
export const sitemapPages = ['/', '/explorer', '/travel', '/sustainable-tourism', '/how-it-works', '/commissions'];

export function sitemapXml(
  baseUrl: string,
  content: { profiles: { username: string; updatedAt: Date }[]; countries: CountryCount[] },
): string {
  const entry = (path: string, lastmod?: Date) =>
    `  <url><loc>${escapeXml(`${baseUrl}${path}`)}</loc>${lastmod ? `<lastmod>${formatTimestamp(lastmod)}</lastmod>` : ''}</url>`;
  const urls = [
    ...sitemapPages.map((path) => entry(path)),
    ...content.countries.map((country) => entry(`/travel?country=${country.countryCode}`)),
    ...content.profiles.map((profile) => entry(`/@${encodeURIComponent(profile.username)}`, profile.updatedAt)),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

export function robotsTxt(baseUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    'Disallow: /admin/',
    'Disallow: /go/',
    'Disallow: /login',
    'Disallow: /language/',
    '',
    `Sitemap: ${baseUrl}/sitemap.xml`,
    '',
  ].join('\n');
}
