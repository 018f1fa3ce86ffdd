import type { FastifyReply } from 'fastify';

export const htmlMediaType = 'text/html; charset=utf-8';

/** Sends a rendered page (with the route's success status: 200). */
export const sendPage = (reply: FastifyReply, page: string) => reply.type(htmlMediaType).send(page);
