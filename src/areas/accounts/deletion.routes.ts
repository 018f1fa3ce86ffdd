/** Account deletion: DELETE /api/users/me (asks, by e-mail) and POST /api/account/deletion/confirm. */
import { Type } from 'typebox';
import { DocumentSchema } from '../../platform/http/jsonapi.ts';
import { perIp, type RateLimitRule } from '../../platform/http/rate-limit.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import type { AccountsServices } from './public.ts';

/** Guessing the password with a stolen token is slowed per account, as for a password change. */
const deletionRequestLimit: RateLimitRule = {
  name: 'account-deletion:user',
  max: 10,
  windowSeconds: 900,
  key: (request) => request.viewer?.userId ?? null,
};

const AccountDeletionSchema = Type.Object({
  type: Type.Literal('accountDeletion'),
  id: Type.String({ description: 'the account UUID' }),
  attributes: Type.Object({
    eraseAfter: Type.String({
      format: 'date-time',
      description: 'when the erasure becomes due (the job runs every 15 minutes); signing in before cancels it',
    }),
  }),
});

export function deletionRoutes({ deletion }: Pick<AccountsServices, 'deletion'>): AnyRoute[] {
  return [
    route({
      method: 'DELETE',
      path: '/api/users/me',
      auth: 'user',
      summary: 'Ask to delete my account: a confirmation link is mailed (single use, 24 hours)',
      description:
        'An account with a password gives it; an account without one sends `{}` within 10 minutes of a sign-in ' +
        'with its identity provider. Nothing changes until the link is confirmed.',
      rateLimit: [perIp('account-deletion', 30, 900), deletionRequestLimit],
      body: Type.Object(
        { password: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })) },
        { additionalProperties: false },
      ),
      errors: ['reauthenticationRequired', 'wrongPassword', 'notFound'],
      success: { status: 202 },
      handler: ({ viewer, body, locale }) => deletion.request(viewer.userId, viewer.sessionId, body.password, locale),
    }),
    route({
      method: 'POST',
      path: '/api/account/deletion/confirm',
      auth: 'none',
      summary:
        'Confirm an account deletion with the mailed token: the account is disabled now, erased after the grace period',
      rateLimit: [perIp('account-deletion-confirm', 30, 900)],
      body: Type.Object(
        {
          token: Type.String({
            minLength: 1,
            maxLength: 200,
            description: 'the token from the e-mail (also in its link)',
          }),
        },
        { additionalProperties: false },
      ),
      errors: ['invalidToken'],
      success: { status: 200, schema: DocumentSchema(AccountDeletionSchema) },
      handler: async ({ body }) => {
        const { userId, eraseAfter } = await deletion.confirm(body.token);
        return {
          data: {
            type: 'accountDeletion' as const,
            id: userId,
            attributes: { eraseAfter: formatTimestamp(eraseAfter) },
          },
        };
      },
    }),
  ];
}
