/** GET /admin/audit: the audit log, newest first, filtered by action, target and time. */
import { Type } from 'typebox';
import { type AuditRow, auditKeyset } from '../../platform/audit/audit-log.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { CollectionSchema, Nullable, ResourceSchema, resource, Timestamp } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { formatTimestamp, parseClientTime } from '../../platform/http/time.ts';
import type { Platform } from '../../platform/modules/area-module.ts';

export const auditPage = { defaultLimit: 50, maxLimit: 200 } as const;

const AuditEntrySchema = ResourceSchema(
  'auditEntries',
  Type.Object({
    actor: Type.String({ description: '"admin" (the admin token), "cli", or a user id' }),
    action: Type.String({ description: 'Dotted verb, e.g. media.flag, maintenance.set' }),
    target: Nullable(Type.Object({ type: Type.String(), id: Nullable(Type.String()) })),
    payload: Type.Object({}, { additionalProperties: true }),
    createdAt: Timestamp,
  }),
  undefined,
  'AuditEntry',
);

const presentEntry = (row: AuditRow) =>
  resource('auditEntries', row.id, {
    actor: row.actor,
    action: row.action,
    target: row.targetType === null ? null : { type: row.targetType, id: row.targetId },
    payload: row.payload,
    createdAt: formatTimestamp(row.createdAt),
  });

const Text = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 200, description }));
const Time = (description: string) => Type.Optional(Type.String({ format: 'date-time', description }));

/** An RFC 3339 time the format let through but the database cannot hold (a leap second, year 0) is 400 too. */
function timeOf(value: string | undefined, parameter: string): Date | undefined {
  if (value === undefined) return undefined;
  const date = parseClientTime(value);
  if (date === null) {
    throw new AppError('invalidQueryParameter', {
      source: { parameter },
      detail: 'must be an RFC 3339 time between the years 1 and 9999',
    });
  }
  return date;
}

export function auditAdminRoutes({ audit }: Pick<Platform, 'audit'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/admin/audit',
      auth: 'admin',
      summary: 'The audit log of admin actions, newest first',
      page: { keyset: auditKeyset, ...auditPage },
      query: {
        action: Text('An exact action (media.flag), or every action under a prefix ending with a dot (media.)'),
        targetType: Text('The target kind, e.g. media, user, job'),
        targetId: Text('The target id, e.g. a media UUID'),
        since: Time('Entries at or after this RFC 3339 time'),
        until: Time('Entries before this RFC 3339 time'),
      },
      success: { status: 200, schema: CollectionSchema(AuditEntrySchema) },
      handler: async ({ query, page, links }) => {
        const since = timeOf(query.since, 'since');
        const until = timeOf(query.until, 'until');
        if (since !== undefined && until !== undefined && since > until) {
          throw new AppError('invalidQueryParameter', {
            source: { parameter: 'until' },
            detail: 'until must not be before since',
          });
        }
        const filter = {
          ...(query.action !== undefined ? { action: query.action } : {}),
          ...(query.targetType !== undefined ? { targetType: query.targetType } : {}),
          ...(query.targetId !== undefined ? { targetId: query.targetId } : {}),
          ...(since !== undefined ? { since } : {}),
          ...(until !== undefined ? { until } : {}),
        };
        return listDocument(await audit.list(filter, page), { page, links }, auditKeyset, presentEntry);
      },
    }),
  ];
}
