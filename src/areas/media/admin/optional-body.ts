import type { FastifyRequest } from 'fastify';

/** For POST routes whose JSON body is optional: no body at all validates as `{}`. */
export async function emptyBodyAsObject(request: FastifyRequest) {
  if (request.body === undefined || request.body === null) request.body = {};
}
