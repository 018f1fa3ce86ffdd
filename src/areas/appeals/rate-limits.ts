/** The appeals' rate limits (docs/api.md, Rate limits), shared with the web page of the mailed link. */
import { perIp, perUser } from '../../platform/http/rate-limit.ts';

/** 10 appeals an hour per account, 30 per IP. */
export const appealRateLimits = [perIp('appeals', 30, 3600), perUser('appeals', 10, 3600)];
/** Appeals by mailed link (POST /api/appeals and the web page's form, one counter): 10 an hour per IP. */
export const appealLinkRateLimits = [perIp('appeal-links', 10, 3600)];
