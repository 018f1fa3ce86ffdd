/**
 * Sign-in with an identity provider (POST /api/auth/oauth/{provider}) and the caller's linked
 * identities: link, list, unlink (docs/api.md, "Sign-in with an identity provider").
 */
import { Type } from 'typebox';
import { alsoAnswer } from '../../platform/http/answers.ts';
import type { ErrorCode } from '../../platform/http/error-catalogue.ts';
import { DocumentSchema } from '../../platform/http/jsonapi.ts';
import { perIp, perUser } from '../../platform/http/rate-limit.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { clientInfo, NewSessionDocumentSchema, presentNewSession } from '../accounts/public.ts';
import { IdentitySchema, presentIdentity } from './presenters.ts';
import type { IdentitiesServices } from './public.ts';
import { ProviderCredentialsBody } from './requests.ts';

const providerParam = {
  provider: Type.String({
    maxLength: 32,
    description: '`google`, `apple` or `facebook`; any other value is 404',
  }),
};

/** What asking a provider can answer, on every route that does. */
const verificationErrors: ErrorCode[] = [
  'notFound',
  'providerNotConfigured',
  'invalidProviderToken',
  'providerUnavailable',
];

export function identitiesRoutes({ identities }: Pick<IdentitiesServices, 'identities'>): AnyRoute[] {
  return [
    route({
      method: 'POST',
      path: '/api/auth/oauth/{provider}',
      // A sign-in: documented with the auth routes (the module registers the rest under account).
      tags: ['auth'],
      auth: 'none',
      summary: 'Sign in with an identity provider: 200 into the linked account, 201 with a new account',
      description:
        'Google and Apple: `idToken` (and the `nonce` when one was used); Facebook: `accessToken`. An identity ' +
        'whose e-mail belongs to an account that does not have it linked is 409 `identityEmailInUse`: sign in ' +
        'to that account and link it with POST /api/users/me/oauth/{provider}.',
      params: providerParam,
      rateLimit: [perIp('oauth-sign-in', 30, 900)],
      body: ProviderCredentialsBody,
      errors: [
        ...verificationErrors,
        'identityEmailInUse',
        'identityEmailMissing',
        'accountBanned',
        'twoFactorRequired',
      ],
      success: {
        status: 200,
        schema: NewSessionDocumentSchema,
        also: { 201: 'A first sign-in: the account was created (same body)' },
      },
      handler: async ({ params, body, request, reply, locale }) => {
        // The answer holds an access token: never kept by a cache.
        reply.header('Cache-Control', 'no-store');
        const signedIn = await identities.signIn(params.provider, body, clientInfo(request), locale);
        const document = presentNewSession(signedIn.session, signedIn.accessToken, signedIn.user);
        return signedIn.created ? alsoAnswer(201, document) : document;
      },
    }),
    route({
      method: 'POST',
      path: '/api/users/me/oauth/{provider}',
      auth: 'user',
      summary: 'Link an identity of a provider to my account: 201, or 200 when it is mine already',
      params: providerParam,
      rateLimit: [perIp('oauth-link', 30, 900), perUser('oauth-link', 10, 900)],
      body: ProviderCredentialsBody,
      errors: [...verificationErrors, 'identityLinkedElsewhere', 'providerAlreadyLinked'],
      success: {
        status: 201,
        schema: DocumentSchema(IdentitySchema),
        also: { 200: 'The identity was linked to my account already (same body)' },
      },
      handler: async ({ viewer, params, body }) => {
        const linked = await identities.link(viewer.userId, params.provider, body);
        const document = { data: presentIdentity(linked.identity) };
        return linked.created ? document : alsoAnswer(200, document);
      },
    }),
    route({
      method: 'GET',
      path: '/api/users/me/oauth-identities',
      auth: 'user',
      summary: 'My linked identities, oldest link first: the whole list (at most one per provider), not paginated',
      success: {
        status: 200,
        schema: Type.Object({
          data: Type.Array(IdentitySchema),
          meta: Type.Object({
            total: Type.Integer(),
            hasPassword: Type.Boolean({ description: 'whether my account has a password to sign in with' }),
          }),
        }),
      },
      handler: async ({ viewer }) => {
        const { rows, hasPassword } = await identities.listWithPassword(viewer.userId);
        return { data: rows.map(presentIdentity), meta: { total: rows.length, hasPassword } };
      },
    }),
    route({
      method: 'DELETE',
      path: '/api/users/me/oauth/{provider}',
      auth: 'user',
      summary: 'Unlink my identity of a provider; refused when it is my last way to sign in',
      params: providerParam,
      errors: ['notFound', 'lastSignInMethod'],
      success: { status: 204 },
      handler: ({ viewer, params }) => identities.unlink(viewer.userId, params.provider),
    }),
  ];
}
