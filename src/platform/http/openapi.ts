/** OpenAPI 3.1 generated from the route schemas (/api/openapi.json) and a reference page (/api/docs). */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { App } from './types.ts';

export async function registerOpenApi(app: App, publicUrl: string) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Travel Media Service API',
        version: '0.1.0',
        description:
          'JSON:API documents under /api (user session tokens) and /admin (the admin token). See docs/api.md for the conventions.',
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          sessionToken: { type: 'http', scheme: 'bearer', description: 'A user session token from /api/auth/login' },
          adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_API_TOKEN' },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });
  app.get('/api/openapi.json', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/json').send(app.swagger()),
  );
}
