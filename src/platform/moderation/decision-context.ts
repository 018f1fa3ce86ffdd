/**
 * Why an operator took a moderation action, as the user it touches is told (docs/api.md, Moderation
 * decisions and appeals): the report it resolves, if any, with the report's reason, and the moderator's
 * note. The owning areas (media, comments, accounts) carry it in their moderation events; the appeals
 * area records it with the decision.
 */
export interface DecisionContext {
  reportId: string | null;
  /** The reason the reporter chose (reports' `reason`), when the action resolves a report. */
  reportReason: string | null;
  /** The moderator's words for the user, if any. */
  note: string | null;
}

/** An action taken directly (an admin route, a CLI command): no report, no note. */
export const directAction: DecisionContext = { reportId: null, reportReason: null, note: null };
