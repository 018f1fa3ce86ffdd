/**
 * The site's one stylesheet (site.css next to this file), read once; its URL carries a hash of its
 * content (`/assets/site.css?v=<hash>`) so browsers may keep it for a year and still get a new one
 * after a release that changes it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export const siteCss = readFileSync(new URL('./site.css', import.meta.url), 'utf8');
export const siteCssVersion = createHash('sha256').update(siteCss).digest('hex').slice(0, 16);
export const siteCssPath = '/assets/site.css';
export const siteCssUrl = `${siteCssPath}?v=${siteCssVersion}`;
