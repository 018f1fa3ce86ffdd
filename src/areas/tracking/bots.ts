/**
 * Which requests are bots or link prefetchers (docs/api.md, "Clicks, redirects and commissions"): their
 * clicks are recorded with `bot: true` and never credited. A User-Agent naming a known crawler, link
 * unfurler or monitoring tool, or a request that says it is a prefetch (`Purpose: prefetch`,
 * `Sec-Purpose: prefetch…`, `X-Purpose: preview`, `X-Moz: prefetch`). A missing User-Agent counts as a bot.
 */
const botUserAgent =
  /bot\b|bot\/|crawler|spider|slurp|googlebot|bingbot|yandex|baiduspider|duckduckbot|applebot|facebookexternalhit|facebookcatalog|meta-externalagent|slackbot|slack-imgproxy|twitterbot|whatsapp|telegrambot|discordbot|linkedinbot|skypeuripreview|pinterest|redditbot|embedly|quora link preview|outbrain|vkshare|w3c_validator|headlesschrome|lighthouse|preview|curl\/|wget\/|python-requests|go-http-client|okhttp\/|java\//i;

type Headers = Record<string, string | string[] | undefined>;

const header = (headers: Headers, name: string): string => {
  const value = headers[name];
  return (Array.isArray(value) ? value.join(',') : (value ?? '')).toLowerCase();
};

export function isBotOrPrefetch(headers: Headers): boolean {
  const userAgent = header(headers, 'user-agent');
  if (userAgent.trim() === '') return true;
  if (botUserAgent.test(userAgent)) return true;
  if (header(headers, 'purpose').includes('prefetch')) return true;
  if (header(headers, 'sec-purpose').includes('prefetch')) return true;
  if (/prefetch|preview/.test(header(headers, 'x-purpose'))) return true;
  return header(headers, 'x-moz').includes('prefetch');
}
