/**
 * Passkeys (docs/api.md, Passkeys): sign-in with a passkey alone (POST /api/auth/passkey/options,
 * POST /api/auth/passkey), and the caller's passkeys: register (options, then the attestation), list,
 * rename, delete.
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { Type } from 'typebox';
import { CollectionSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { perIp, perUser } from '../../platform/http/rate-limit.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import { clientInfo, NewSessionDocumentSchema, presentNewSession } from '../accounts/public.ts';
import { passkeysKeyset } from './passkeys.repository.ts';
import { maxPasskeysPerUser } from './passkeys.service.ts';
import {
  PasskeySchema,
  presentOptions,
  presentPasskey,
  RegistrationOptionsSchema,
  SignInOptionsSchema,
} from './presenters.ts';
import type { PasskeysServices } from './public.ts';
import { PasskeyRegistrationBody, PasskeySignInBody, RegistrationOptionsBody } from './requests.ts';

const base = '/api/users/me/passkeys';
const PasskeyName = Type.String({ minLength: 1, maxLength: 64, pattern: '\\S', description: '1 to 64 characters' });
const passkeyId = { id: idParam('The passkey UUID', { hex: false }) };

export function passkeysRoutes({
  passkeys,
  passkeySignIn,
}: Pick<PasskeysServices, 'passkeys' | 'passkeySignIn'>): AnyRoute[] {
  return [
    route({
      method: 'POST',
      path: '/api/auth/passkey/options',
      tags: ['auth'],
      auth: 'none',
      summary: 'A passkey sign-in challenge: the options for navigator.credentials.get() (single use, 5 minutes)',
      description:
        'Discoverable credentials: the options name no account (`allowCredentials` is empty), and user verification ' +
        'is required. Pass `data.attributes.publicKey` to the browser (e.g. @simplewebauthn/browser startAuthentication), ' +
        'then POST the answer to /api/auth/passkey.',
      rateLimit: [perIp('passkey-sign-in-options', 30, 900)],
      success: { status: 200, schema: DocumentSchema(SignInOptionsSchema) },
      handler: async ({ reply }) => {
        reply.header('Cache-Control', 'no-store');
        return { data: presentOptions(await passkeySignIn.options()) };
      },
    }),
    route({
      method: 'POST',
      path: '/api/auth/passkey',
      tags: ['auth'],
      auth: 'none',
      summary: 'Sign in with a passkey alone: the assertion for a challenge of POST /api/auth/passkey/options',
      description:
        'A user-verified passkey counts as two factors. 401 `passkeyRejected` (`meta.reason`: challenge, credential, ' +
        'signature, counter) when the assertion is not accepted, 401 `passkeyUserVerificationRequired` when the ' +
        'authenticator did not verify the user. The challenge is spent by the first answer naming it, accepted or not.',
      rateLimit: [perIp('passkey-sign-in', 30, 900)],
      body: PasskeySignInBody,
      errors: ['passkeyRejected', 'passkeyUserVerificationRequired', 'twoFactorRequired', 'accountBanned'],
      success: { status: 200, schema: NewSessionDocumentSchema },
      handler: async ({ body, request, reply }) => {
        reply.header('Cache-Control', 'no-store');
        const { user, session, accessToken } = await passkeySignIn.signIn(
          body.credential as AuthenticationResponseJSON,
          clientInfo(request),
        );
        return presentNewSession(session, accessToken, user);
      },
    }),
    route({
      method: 'POST',
      path: `${base}/options`,
      auth: 'user',
      summary: 'Start registering a passkey: the options for navigator.credentials.create() (single use, 5 minutes)',
      description:
        'Confirm it is you first: give `password` (checked and throttled like a sign-in), or send `{}` within 10 minutes ' +
        `of signing in. At most ${maxPasskeysPerUser} passkeys per account (409 \`passkeyLimitReached\`).`,
      rateLimit: [perIp('passkey-register-options', 30, 900), perUser('passkey-register-options', 10, 900)],
      body: RegistrationOptionsBody,
      errors: ['reauthenticationRequired', 'wrongPassword', 'passkeyLimitReached', 'notFound'],
      success: { status: 200, schema: DocumentSchema(RegistrationOptionsSchema) },
      handler: async ({ viewer, body, request, reply }) => {
        reply.header('Cache-Control', 'no-store');
        return { data: presentOptions(await passkeys.registrationOptions(viewer, body, clientInfo(request))) };
      },
    }),
    route({
      method: 'POST',
      path: base,
      auth: 'user',
      summary: 'Register a passkey: the attestation made for a challenge of POST /api/users/me/passkeys/options',
      description: 'A mail tells the owner. `name` defaults to "Passkey <date>".',
      rateLimit: [perIp('passkey-register', 30, 900), perUser('passkey-register', 10, 900)],
      body: PasskeyRegistrationBody,
      errors: ['passkeyRegistrationRejected', 'passkeyAlreadyRegistered', 'passkeyLimitReached', 'notFound'],
      success: { status: 201, schema: DocumentSchema(PasskeySchema) },
      handler: async ({ viewer, body, locale }) => ({
        data: presentPasskey(
          await passkeys.register(
            viewer.userId,
            { name: body.name?.trim(), credential: body.credential as RegistrationResponseJSON },
            locale,
          ),
        ),
      }),
    }),
    route({
      method: 'GET',
      path: base,
      auth: 'user',
      summary: `My passkeys, newest first (at most ${maxPasskeysPerUser}; keyset pages over createdAt, id)`,
      page: { keyset: passkeysKeyset },
      success: { status: 200, schema: CollectionSchema(PasskeySchema) },
      handler: async ({ viewer, page, links }) =>
        listDocument(await passkeys.list(viewer.userId, page), { page, links }, passkeysKeyset, presentPasskey),
    }),
    route({
      method: 'PATCH',
      path: `${base}/{id}`,
      auth: 'user',
      summary: 'Rename one of my passkeys',
      params: passkeyId,
      rateLimit: [perIp('passkey-rename', 60, 900), perUser('passkey-rename', 30, 900)],
      body: Type.Object({ name: PasskeyName }, { additionalProperties: false }),
      errors: ['notFound'],
      success: { status: 200, schema: DocumentSchema(PasskeySchema) },
      handler: async ({ viewer, params, body }) => ({
        data: presentPasskey(await passkeys.rename(viewer.userId, params.id, body.name.trim())),
      }),
    }),
    route({
      method: 'DELETE',
      path: `${base}/{id}`,
      auth: 'user',
      summary: 'Delete one of my passkeys: it signs in no more (a mail tells me)',
      params: passkeyId,
      rateLimit: [perIp('passkey-delete', 60, 900), perUser('passkey-delete', 30, 900)],
      errors: ['notFound'],
      success: { status: 204 },
      handler: ({ viewer, params, locale }) => passkeys.delete(viewer.userId, params.id, locale),
    }),
  ];
}
