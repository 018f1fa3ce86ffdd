/** A user's own domain blocks: GET /api/users/me/domain-blocks, PUT/DELETE /api/users/me/domain-blocks/{domain}. */
import { Type } from 'typebox';
import { CollectionSchema, DocumentSchema, ResourceSchema, resource, Timestamp } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import { domainBlocksKeyset } from './domain-blocks.repository.ts';
import type { AccountsServices } from './public.ts';
import { relationRateLimits } from './relations.routes.ts';
import { DomainInput } from './requests.ts';
import type { UserDomainBlockRow } from './tables.ts';

export const UserDomainBlockSchema = ResourceSchema(
  'domainBlocks',
  Type.Object({
    domain: Type.String({ description: 'lower case, IDNA; its subdomains are blocked too' }),
    createdAt: Timestamp,
  }),
  undefined,
  'UserDomainBlock',
);

const presentDomainBlock = (row: UserDomainBlockRow) =>
  resource('domainBlocks', row.domain, { domain: row.domain, createdAt: formatTimestamp(row.createdAt) });

const params = { domain: DomainInput('A domain (`mastodon.example`; case, a port or a URL around it are ignored)') };

export function domainBlocksRoutes({ domainBlocks }: Pick<AccountsServices, 'domainBlocks'>): AnyRoute[] {
  return [
    route({
      method: 'PUT',
      path: '/api/users/me/domain-blocks/{domain}',
      auth: 'user',
      summary: 'Block a remote domain (idempotent): its actors are to me as users I block; our follows removed',
      params,
      rateLimit: relationRateLimits,
      success: { status: 200, schema: DocumentSchema(UserDomainBlockSchema) },
      handler: async ({ viewer, params }) => ({
        data: presentDomainBlock(await domainBlocks.block(viewer.userId, params.domain)),
      }),
    }),
    route({
      method: 'DELETE',
      path: '/api/users/me/domain-blocks/{domain}',
      auth: 'user',
      summary: 'Unblock a remote domain (idempotent; follows do not come back)',
      params,
      rateLimit: relationRateLimits,
      success: { status: 204 },
      handler: ({ viewer, params }) => domainBlocks.unblock(viewer.userId, params.domain),
    }),
    route({
      method: 'GET',
      path: '/api/users/me/domain-blocks',
      auth: 'user',
      summary: 'The remote domains I block, newest first',
      page: { keyset: domainBlocksKeyset },
      success: { status: 200, schema: CollectionSchema(UserDomainBlockSchema) },
      handler: async ({ viewer, page, links }) =>
        listDocument(
          await domainBlocks.list(viewer.userId, page),
          { page, links },
          domainBlocksKeyset,
          presentDomainBlock,
        ),
    }),
  ];
}
