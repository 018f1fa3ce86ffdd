/** Decisions and appeals as their user sees them, and appeals as operators do. */
import { Type } from 'typebox';
import { Nullable, ResourceSchema, resource, StringEnum, Timestamp, Uuid } from '../../platform/http/jsonapi.ts';
import { formatNullableTimestamp, formatTimestamp } from '../../platform/http/time.ts';
import type { AppealWithDecision, DecisionWithAppeal } from './appeals.repository.ts';
import { type AppealRow, appealStatuses, type DecisionRow, decisionKinds } from './tables.ts';

const decisionAttributes = {
  kind: StringEnum(decisionKinds, {
    description: 'mediaHidden (targetId: the media), commentDeleted (the comment), userBanned (the account)',
  }),
  targetId: Uuid,
  mediaId: Nullable(Type.String({ format: 'uuid', description: 'The media hidden, or the deleted comment’s media' })),
  reportReason: Nullable(Type.String({ description: 'The reason of the report the action resolved, if any' })),
  note: Nullable(Type.String({ description: "The moderator's note" })),
  banUntil: Nullable(Timestamp),
  createdAt: Timestamp,
  appealUntil: Type.String({ format: 'date-time', description: 'The last moment an appeal is taken' }),
  reversedAt: Nullable(Timestamp),
};

const decisionOf = (row: DecisionRow) => ({
  kind: row.kind,
  targetId: row.targetId,
  mediaId: row.mediaId,
  reportReason: row.reportReason,
  note: row.note,
  banUntil: formatNullableTimestamp(row.banUntil),
  createdAt: formatTimestamp(row.createdAt),
  appealUntil: formatTimestamp(row.appealUntil),
  reversedAt: formatNullableTimestamp(row.reversedAt),
});

export const DecisionSchema = ResourceSchema(
  'moderationDecisions',
  Type.Object({
    ...decisionAttributes,
    appealStatus: Nullable(StringEnum(appealStatuses, { description: 'null: not appealed' })),
  }),
  undefined,
  'ModerationDecision',
);

export function presentDecision({ decision, appealStatus }: DecisionWithAppeal) {
  return resource('moderationDecisions', decision.id, { ...decisionOf(decision), appealStatus });
}

const appealAttributes = {
  decisionId: Uuid,
  text: Type.String(),
  status: StringEnum(appealStatuses),
  response: Nullable(Type.String({ description: "The moderator's answer, once decided" })),
  createdAt: Timestamp,
  decidedAt: Nullable(Timestamp),
  decision: Type.Object(decisionAttributes),
};

const appealOf = (appeal: AppealRow, decision: DecisionRow) => ({
  decisionId: appeal.decisionId,
  text: appeal.text,
  status: appeal.status,
  response: appeal.response,
  createdAt: formatTimestamp(appeal.createdAt),
  decidedAt: formatNullableTimestamp(appeal.decidedAt),
  decision: decisionOf(decision),
});

export const AppealSchema = ResourceSchema('appeals', Type.Object(appealAttributes), undefined, 'Appeal');

export function presentAppeal({ appeal, decision }: AppealWithDecision) {
  return resource('appeals', appeal.id, appealOf(appeal, decision));
}

export const AdminAppealSchema = ResourceSchema(
  'appeals',
  Type.Object({
    ...appealAttributes,
    userId: Uuid,
    reportId: Nullable(Type.String({ format: 'uuid' })),
  }),
  undefined,
  'AdminAppeal',
);

export function presentAdminAppeal({ appeal, decision }: AppealWithDecision) {
  return resource('appeals', appeal.id, {
    ...appealOf(appeal, decision),
    userId: appeal.userId,
    reportId: decision.reportId,
  });
}
