/** The outgoing deliveries' health per domain, for operators: GET /admin/federation/domains. */
import { Type } from 'typebox';
import {
  CollectionSchema,
  Nullable,
  ResourceSchema,
  resource,
  StringEnum,
  Timestamp,
} from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { formatNullableTimestamp } from '../../platform/http/time.ts';
import { domainHealthKeyset } from './delivery-health.repository.ts';
import type { DeliveryHealthService } from './delivery-health.service.ts';
import type { DomainHealthRow } from './tables.ts';

const domainStates = ['ok', 'failing', 'backedOff', 'unavailable'] as const;

export const DomainHealthSchema = ResourceSchema(
  'federationDomains',
  Type.Object({
    domain: Type.String(),
    state: StringEnum(domainStates, {
      description:
        'ok; failing (consecutive failures); backedOff (deliveries held until retryAt); unavailable (failing for 7 days: held deliveries dropped, one probe at each retryAt)',
    }),
    consecutiveFailures: Type.Integer(),
    failingSince: Nullable(Timestamp),
    retryAt: Nullable(Timestamp),
    lastSuccessAt: Nullable(Timestamp),
    lastFailureAt: Nullable(Timestamp),
    lastError: Nullable(Type.String()),
  }),
  undefined,
  'FederationDomain',
);

export function deliveryHealthAdminRoutes(health: DeliveryHealthService): AnyRoute[] {
  const presentHealth = (row: DomainHealthRow) =>
    resource('federationDomains', row.domain, {
      domain: row.domain,
      state: health.stateOf(row),
      consecutiveFailures: row.consecutiveFailures,
      failingSince: formatNullableTimestamp(row.failingSince),
      retryAt: formatNullableTimestamp(row.retryAt),
      lastSuccessAt: formatNullableTimestamp(row.lastSuccessAt),
      lastFailureAt: formatNullableTimestamp(row.lastFailureAt),
      lastError: row.lastError,
    });
  return [
    route({
      method: 'GET',
      path: '/admin/federation/domains',
      auth: 'admin',
      summary: 'Outgoing deliveries per domain: consecutive failures, back-off, last success and failure',
      page: { keyset: domainHealthKeyset },
      success: { status: 200, schema: CollectionSchema(DomainHealthSchema) },
      handler: async ({ page, links }) =>
        listDocument(await health.list(page), { page, links }, domainHealthKeyset, presentHealth),
    }),
  ];
}
