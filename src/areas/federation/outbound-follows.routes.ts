/**
 * Following remote accounts (docs/api.md, Federation): by handle, and the list of one's remote
 * follows with their state. Declared whether FEDERATION is on or not; off, they answer 409
 * federationOff. Unfollowing is `DELETE /api/users/me/following/{targetUserId}` (follows' route).
 */
import { type Static, Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import {
  CollectionSchema,
  DocumentSchema,
  Nullable,
  ResourceSchema,
  StringEnum,
  Timestamp,
} from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { perIp, perUser } from '../../platform/http/rate-limit.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { formatNullableTimestamp, formatTimestamp } from '../../platform/http/time.ts';
import { PublicUserSchema, presentPublicUser } from '../accounts/public.ts';
import type { OutboundFollowListed } from './outbound-follows.repository.ts';
import { outboundFollowsKeyset } from './outbound-follows.repository.ts';
import type { FederationServices } from './public.ts';
import { handleMaxLength } from './remote-handles.ts';

const base = '/api/users/me/following/remote';

/** A remote account I follow or asked to follow: the public user, and the follow's state. */
export const RemoteFollowedUserSchema = ResourceSchema(
  'users',
  Type.Object({
    ...PublicUserSchema.properties.attributes.properties,
    remoteFollow: Type.Object({
      state: StringEnum(['pending', 'accepted'], {
        description: '`pending` until the remote server accepts the Follow, then `accepted`',
      }),
      actorUrl: Type.String({ description: 'the ActivityPub actor of the account' }),
      requestedAt: Timestamp,
      acceptedAt: Nullable(Timestamp),
    }),
  }),
  undefined,
  'RemoteFollowedUser',
);

export const RemoteFollowBody = Type.Object(
  {
    handle: Type.String({
      minLength: 1,
      maxLength: handleMaxLength,
      description: "`name@host`, `@name@host`, or the account's actor URL (`https://host/users/name`)",
    }),
  },
  { additionalProperties: false },
);
export type RemoteFollowBody = Static<typeof RemoteFollowBody>;

export function presentRemoteFollowed({ follow, user, actorUri }: OutboundFollowListed) {
  const base = presentPublicUser(user);
  return {
    ...base,
    attributes: {
      ...base.attributes,
      remoteFollow: {
        state: follow.state,
        actorUrl: actorUri,
        requestedAt: formatTimestamp(follow.requestedAt),
        acceptedAt: formatNullableTimestamp(follow.acceptedAt),
      },
    },
  };
}

/** The service, or 409 federationOff. */
function requireOn(services: FederationServices) {
  if (services.outboundFollows === null) throw new AppError('federationOff');
  return services.outboundFollows;
}

export function outboundFollowsRoutes(services: FederationServices): AnyRoute[] {
  return [
    route({
      method: 'POST',
      path: base,
      auth: 'user',
      summary: 'Follow a remote account by its handle (WebFinger, then a Follow; pending until it accepts)',
      description:
        'The account is found by WebFinger (or its actor URL) and fetched; a signed Follow is queued for its server. 202 with the account and `remoteFollow.state` `pending`; the follow counts once its server accepts. Again while pending: the Follow is sent again (202). See docs/api.md, Federation.',
      body: RemoteFollowBody,
      rateLimit: [perIp('remote-follow', 60, 3600), perUser('remote-follow', 30, 3600)],
      errors: ['notFound', 'alreadyFollowing', 'federationOff', 'invalidHandle', 'localHandle'],
      success: { status: 202, schema: DocumentSchema(RemoteFollowedUserSchema) },
      handler: async ({ viewer, body }) => ({
        data: presentRemoteFollowed(await requireOn(services).followHandle(viewer.userId, body.handle)),
      }),
    }),
    route({
      method: 'GET',
      path: base,
      auth: 'user',
      summary: 'The remote accounts I follow or asked to follow, with the state of each, newest request first',
      page: { keyset: outboundFollowsKeyset },
      errors: ['federationOff'],
      success: { status: 200, schema: CollectionSchema(RemoteFollowedUserSchema) },
      handler: async ({ viewer, page, links }) =>
        listDocument(
          await requireOn(services).list(viewer.userId, page),
          { page, links },
          outboundFollowsKeyset,
          presentRemoteFollowed,
        ),
    }),
  ];
}
