/** Registration, login and sessions: /api/auth/*. */
import { Type } from 'typebox';
import { requireUuidParam } from '../../platform/http/ids.ts';
import { CollectionSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import { pageLinks, pageOf, pageQuerySchema, pageRequest } from '../../platform/http/pagination.ts';
import { perBodyField, perIp } from '../../platform/http/rate-limit.ts';
import { type App, requireViewer } from '../../platform/http/types.ts';
import type { AccountsServices } from './accounts.module.ts';
import {
  NewSessionDocumentSchema,
  OwnUserSchema,
  presentNewSession,
  presentOwnUser,
  presentSession,
  SessionSchema,
} from './presenters.ts';
import { clientInfo } from './sessions.service.ts';
import { NicknameSchema, UsernameSchema } from './usernames.ts';

const tags = ['auth'];
const Email = Type.String({ format: 'email', maxLength: 254 });
const Password = Type.String({
  minLength: 1,
  maxLength: 128,
  description: '10 to 128 characters, a letter and a digit or symbol',
});

export function authRoutes(app: App, { accounts, sessions }: AccountsServices) {
  app.post(
    '/api/auth/register',
    {
      config: { auth: 'none', rateLimit: [perIp('register', 10, 3600), perBodyField('register', 'email', 5, 3600)] },
      schema: {
        tags,
        summary: 'Create an account and sign in',
        body: Type.Object(
          {
            email: Email,
            password: Password,
            username: Type.Optional(UsernameSchema),
            nickname: Type.Optional(NicknameSchema),
            sponsorCode: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
          },
          { additionalProperties: false },
        ),
        response: { 201: NewSessionDocumentSchema },
      },
    },
    async (request, reply) => {
      const { user, session, accessToken } = await accounts.register(request.body, clientInfo(request), request.locale);
      return reply.status(201).send(presentNewSession(session, accessToken, user));
    },
  );

  app.post(
    '/api/auth/login',
    {
      config: {
        auth: 'none',
        rateLimit: [
          perIp('login', 30, 900),
          perBodyField('login', 'email', 10, 900),
          perBodyField('login', 'login', 10, 900),
        ],
      },
      schema: {
        tags,
        summary: 'Sign in with an e-mail or a username and a password',
        body: Type.Union(
          [
            Type.Object(
              { email: Type.String({ minLength: 1, maxLength: 254 }), password: Password },
              { additionalProperties: false },
            ),
            Type.Object(
              { login: Type.String({ minLength: 1, maxLength: 254 }), password: Password },
              { additionalProperties: false },
            ),
          ],
          { description: '`email`, or `login` holding an e-mail or a username' },
        ),
        response: { 200: NewSessionDocumentSchema },
      },
    },
    async (request) => {
      const body = request.body as { email?: string; login?: string; password: string };
      const { user, session, accessToken } = await accounts.login(
        body.email ?? body.login ?? '',
        body.password,
        clientInfo(request),
      );
      return presentNewSession(session, accessToken, user);
    },
  );

  app.get(
    '/api/auth/me',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'The signed-in user', response: { 200: DocumentSchema(OwnUserSchema) } },
    },
    async (request) => ({ data: presentOwnUser(await accounts.getUser(requireViewer(request).userId)) }),
  );

  app.get(
    '/api/auth/sessions',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My live sessions, newest first; the current one is marked',
        querystring: Type.Object(pageQuerySchema(20, 100), { additionalProperties: false }),
        response: { 200: CollectionSchema(SessionSchema) },
      },
    },
    async (request) => {
      const viewer = requireViewer(request);
      const page = pageRequest(request.query, ['timestamp', 'uuid']);
      const rows = await sessions.list(viewer.userId, page);
      const result = pageOf(rows, page, (row) => [row.createdAt, row.id]);
      return {
        data: result.items.map((row) => presentSession(row, viewer.sessionId)),
        meta: { limit: page.limit },
        links: pageLinks(request.url, result),
      };
    },
  );

  app.delete(
    '/api/auth/sessions/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Revoke one of my sessions (its token dies at once)',
        params: Type.Object({ id: Type.String() }),
      },
    },
    async (request, reply) => {
      await sessions.revoke(requireViewer(request).userId, requireUuidParam(request.params.id, 'id', false));
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/auth/logout',
    { config: { auth: 'user' }, schema: { tags, summary: 'End the current session' } },
    async (request, reply) => {
      const viewer = requireViewer(request);
      await sessions.revoke(viewer.userId, viewer.sessionId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/auth/logout-all',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'End every session of mine, this one included',
        response: {
          200: DocumentSchema(
            Type.Object({
              type: Type.Literal('sessionsEnded'),
              id: Type.String(),
              attributes: Type.Object({ ended: Type.Integer() }),
            }),
          ),
        },
      },
    },
    async (request) => {
      const viewer = requireViewer(request);
      const ended = await sessions.endAll(viewer.userId);
      return { data: { type: 'sessionsEnded' as const, id: viewer.userId, attributes: { ended } } };
    },
  );
}
