/**
 * A feed written as RSS 2.0 (with atom:link rel="self" and dc:creator, as the RSS Advisory Board's
 * profile asks) or as Atom 1.0 (RFC 4287). An RSS item has one enclosure (the post's first photo), an
 * Atom entry one `rel="enclosure"` link per photo, in order. Every text and URL goes through escapeXml;
 * the document names no time but the feed's and entries' own, so the same content is the same bytes
 * (the ETag's ground).
 */
import { formatTimestamp } from '../../platform/http/time.ts';
import { escapeXml as x } from '../../platform/text/escape-xml.ts';
import { type Feed, type FeedFormat, feedFormats } from './feed.ts';

const rfc822 = (date: Date) => date.toUTCString();
const urn = (id: string) => `urn:uuid:${id}`;

export function rssXml(feed: Feed, baseUrl: string): string {
  const self = `${baseUrl}${feed.selfPath}.${feedFormats.rss.extension}`;
  const items = feed.entries.map(
    (entry) => `    <item>
      <title>${x(entry.title)}</title>
      <link>${x(`${baseUrl}${entry.link}`)}</link>
      <guid isPermaLink="false">${x(urn(entry.id))}</guid>
      <pubDate>${rfc822(entry.published)}</pubDate>
      <dc:creator>${x(entry.author)}</dc:creator>
${entry.summary ? `      <description>${x(entry.summary)}</description>\n` : ''}${entry.enclosures
  .slice(0, 1)
  .map(
    (enclosure) =>
      `      <enclosure url="${x(`${baseUrl}${enclosure.url}`)}" length="${enclosure.length}" type="${x(enclosure.type)}"/>\n`,
  )
  .join('')}    </item>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>${x(feed.title)}</title>
    <link>${x(`${baseUrl}${feed.htmlPath}`)}</link>
    <description>${x(feed.description)}</description>
    <lastBuildDate>${rfc822(feed.updated)}</lastBuildDate>
    <atom:link href="${x(self)}" rel="self" type="${feedFormats.rss.mediaType}"/>
${items.join('\n')}
  </channel>
</rss>
`;
}

export function atomXml(feed: Feed, baseUrl: string): string {
  const self = `${baseUrl}${feed.selfPath}.${feedFormats.atom.extension}`;
  const entries = feed.entries.map(
    (entry) => `  <entry>
    <id>${x(urn(entry.id))}</id>
    <title>${x(entry.title)}</title>
    <published>${formatTimestamp(entry.published)}</published>
    <updated>${formatTimestamp(entry.updated)}</updated>
    <author><name>${x(entry.author)}</name></author>
    <link rel="alternate" type="text/html" href="${x(`${baseUrl}${entry.link}`)}"/>
${entry.enclosures
  .map(
    (enclosure) =>
      `    <link rel="enclosure" type="${x(enclosure.type)}" length="${enclosure.length}" href="${x(`${baseUrl}${enclosure.url}`)}"/>\n`,
  )
  .join('')}${entry.summary ? `    <summary>${x(entry.summary)}</summary>\n` : ''}  </entry>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${x(self)}</id>
  <title>${x(feed.title)}</title>
  <subtitle>${x(feed.description)}</subtitle>
  <updated>${formatTimestamp(feed.updated)}</updated>
  <link rel="self" type="${feedFormats.atom.mediaType}" href="${x(self)}"/>
  <link rel="alternate" type="text/html" href="${x(`${baseUrl}${feed.htmlPath}`)}"/>
${entries.join('\n')}
</feed>
`;
}

export const feedXml = (format: FeedFormat, feed: Feed, baseUrl: string) =>
  format === 'rss' ? rssXml(feed, baseUrl) : atomXml(feed, baseUrl);
