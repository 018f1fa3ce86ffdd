/**
 * Operators' moderation of federation: GET/POST /admin/federation/domain-blocks, DELETE
 * /admin/federation/domain-blocks/{domain} (audited in the service).
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
import { formatTimestamp } from '../../platform/http/time.ts';
import { DomainInput } from '../accounts/public.ts';
import { adminDomainBlocksKeyset } from './domain-blocks.repository.ts';
import { type DomainBlocksService, domainBlockReasonMaxLength } from './domain-blocks.service.ts';
import type { DomainBlockRow } from './tables.ts';

const severities = ['reject', 'silence'] as const;

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
    domain: DomainInput('A domain (`mastodon.example`; case, a port or a URL around it are ignored)'),
    severity: StringEnum(severities, {
      description:
        'reject: nothing in or out, its actors suspended; silence: its actors reach only their local followers',
    }),
    publicReason: Reason,
    privateReason: Reason,
  },
  { additionalProperties: false },
);

export function domainBlocksAdminRoutes(domainBlocks: DomainBlocksService): AnyRoute[] {
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
      params: { domain: DomainInput('The blocked domain') },
      errors: ['notFound'],
      success: { status: 204 },
      handler: ({ params }) => domainBlocks.remove(params.domain),
    }),
  ];
}
