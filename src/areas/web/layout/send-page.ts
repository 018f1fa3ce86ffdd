import type { FastifyReply } from 'fastify';

export const htmlMediaType = 'text/html; charset=utf-8';

/** Sends a rendered page with its status. */
export const sendPage = (reply: FastifyReply, page: string, status = 200) =>
  reply.status(status).type(htmlMediaType).send(page);
