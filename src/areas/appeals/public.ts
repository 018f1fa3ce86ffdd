/** The face of appeals: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { AppealReviewService } from './admin/appeal-review.service.ts';
import type { AppealsService } from './appeals.service.ts';
import type { DecisionsService } from './decisions.service.ts';

export interface AppealsServices {
  /** Moderation decisions: recorded from the owning areas' events, listed for their user. */
  decisions: DecisionsService;
  /** Users' appeals: by session or by mailed link. */
  appeals: AppealsService;
  /** The operators' side: list and outcome. */
  appealReview: AppealReviewService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    appeals: AppealsServices;
  }
}

export type { AppealsService } from './appeals.service.ts';
export { checkedAppealText, maxAppealTextLength } from './appeals.service.ts';
export { appealLinkRateLimits } from './rate-limits.ts';
