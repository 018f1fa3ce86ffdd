/**
 * Operators' moderation of federation: GET/POST /admin/federation/domain-blocks, DELETE
 * /admin/federation/domain-blocks/{domain} (audited in the service), and the deliveries' health per
 * domain, GET /admin/federation/domains.
 */
import { Type } from 'typebox';
import { alsoAnswer } from '../../platform/http/answers.ts';
import {
  CollectionSchema,
  DocumentSchema,
  Nullable,
  ResourceSchema,
  resource,
  StringEnum,
  Timestamp,
} from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { formatNullableTimestamp, formatTimestamp } from '../../platform/http/time.ts';
import { domainMaxLength } from '../../platform/text/domain-names.ts';
import { domainHealthKeyset } from './delivery-health.repository.ts';
import type { DeliveryHealthService } from './delivery-health.service.ts';
import { adminDomainBlocksKeyset } from './domain-blocks.repository.ts';
import { type DomainBlocksService, domainBlockReasonMaxLength } from './domain-blocks.service.ts';
import type { DomainBlockRow, DomainHealthRow } from './tables.ts';

const severities = ['reject', 'silence'] as const;
const domainStates = ['ok', 'failing', 'backedOff', 'unavailable'] as const;

export const DomainBlockSchema = ResourceSchema(
  'federationDomainBlocks',
  Type.Object({
    domain: Type.String({ description: 'lower case, IDNA, no port; its subdomains are covered too' }),
    severity: StringEnum(severities),
    publicReason: Nullable(Type.String()),
    privateReason: Nullable(Type.String({ description: 'for operators only' })),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
  undefined,
  'FederationDomainBlock',
);

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

const presentBlock = (row: DomainBlockRow) =>
  resource('federationDomainBlocks', row.domain, {
    domain: row.domain,
    severity: row.severity,
    publicReason: row.publicReason,
    privateReason: row.privateReason,
    createdAt: formatTimestamp(row.createdAt),
    updatedAt: formatTimestamp(row.updatedAt),
  });

const Reason = Type.Optional(Nullable(Type.String({ maxLength: domainBlockReasonMaxLength })));

const BlockBody = Type.Object(
  {
    domain: Type.String({
      minLength: 1,
      maxLength: domainMaxLength + 20,
      description: 'A domain (`mastodon.example`; case, a port or a URL around it are ignored)',
    }),
    severity: StringEnum(severities, {
      description:
        'reject: nothing in or out, its actors suspended; silence: its actors reach only their local followers',
    }),
    publicReason: Reason,
    privateReason: Reason,
  },
  { additionalProperties: false },
);

export function domainBlocksAdminRoutes(domainBlocks: DomainBlocksService, health: DeliveryHealthService): AnyRoute[] {
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
      path: '/admin/federation/domain-blocks',
      auth: 'admin',
      summary: 'The blocked domains, by name',
      page: { keyset: adminDomainBlocksKeyset },
      success: { status: 200, schema: CollectionSchema(DomainBlockSchema) },
      handler: async ({ page, links }) =>
        listDocument(await domainBlocks.list(page), { page, links }, adminDomainBlocksKeyset, presentBlock),
    }),
    route({
      method: 'POST',
      path: '/admin/federation/domain-blocks',
      auth: 'admin',
      summary: 'Block a domain and its subdomains (reject or silence), or change its block (audited)',
      body: BlockBody,
      success: {
        status: 201,
        schema: DocumentSchema(DomainBlockSchema),
        also: { 200: 'The domain was blocked already: its block changed' },
      },
      handler: async ({ body }) => {
        const { block, created } = await domainBlocks.put(body);
        const document = { data: presentBlock(block) };
        return created ? document : alsoAnswer(200, document);
      },
    }),
    route({
      method: 'DELETE',
      path: '/admin/federation/domain-blocks/{domain}',
      auth: 'admin',
      summary: 'Lift a domain block (audited); the bans a rejection made are lifted, follows do not come back',
      params: {
        domain: Type.String({ minLength: 1, maxLength: domainMaxLength + 20, description: 'The blocked domain' }),
      },
      errors: ['notFound'],
      success: { status: 204 },
      handler: ({ params }) => domainBlocks.remove(params.domain),
    }),
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
