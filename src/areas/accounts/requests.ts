/**
 * The request schemas of accounts that routes of another area take too (the web sign-in's POST /login
 * takes the body of POST /api/auth/login); other request schemas live in the routes that take them.
 */
import { Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { domainMaxLength } from '../../platform/text/domain-names.ts';

export const Password = Type.String({
  minLength: 1,
  maxLength: 128,
  description: '10 to 128 characters, a letter and a digit or symbol',
});
const LoginName = Type.String({ minLength: 1, maxLength: 254 });
/** The body of a password sign-in (POST /api/auth/login, and the web's POST /login). */
export const LoginBody = Type.Object(
  { email: Type.Optional(LoginName), login: Type.Optional(LoginName), password: Password },
  { additionalProperties: false, description: 'exactly one of `email` and `login` (an e-mail or a username)' },
);

/** The one name a login gives: `email`, or `login` (an e-mail or a username); both or neither is one 422. */
export function loginNameOf(body: { email?: string; login?: string }): string {
  const given = [body.email, body.login].filter((value) => value !== undefined);
  const [name] = given;
  if (given.length !== 1 || name === undefined) {
    throw new AppError('validationFailed', {
      source: { pointer: body.email === undefined ? '/login' : '/email' },
      detail: 'give exactly one of email and login',
    });
  }
  return name;
}

/** A domain in a path (`{domain}`) or a body: normalized by `requireDomain` (domain-blocks.service.ts). */
export const DomainInput = (description: string) =>
  Type.String({ minLength: 1, maxLength: domainMaxLength + 20, description });
