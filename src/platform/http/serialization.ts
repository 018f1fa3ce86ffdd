/**
 * Response serializers (fast-json-stringify, as Fastify's default compiler builds them) compiled on
 * the first answer of each route and status, not when routes are registered: building about 170
 * routes' serializers took a sixth of a warm start. route-schemas.test.ts builds them all at
 * registration, so a schema fast-json-stringify refuses still fails the suite.
 */

import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';

type Serialize = (data: unknown) => string;

const compileSerializer = (schema: object): Serialize => fastJsonStringify(schema) as Serialize;

/** Fastify's serializer compiler: building at the first answer (the server), or now (a test of every schema). */
export const serializerCompiler =
  (when: 'firstUse' | 'now'): FastifySerializerCompiler<object> =>
  ({ schema }) => {
    if (when === 'now') return compileSerializer(schema);
    let compiled: Serialize | null = null;
    return (data: unknown) => {
      compiled ??= compileSerializer(schema);
      return compiled(data);
    };
  };
