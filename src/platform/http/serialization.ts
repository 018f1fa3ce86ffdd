/**
 * How answers are written. A route's declared success schema documents its answer (OpenAPI, the
 * generated client); the answer itself is written by V8's JSON.stringify, which on Node 24 costs a
 * third of what fast-json-stringify's generated code cost for the same lists (their escaping, date
 * checks and string concatenation were a tenth of a notification page's server CPU:
 * docs/benchmarks.md, "Answers written by JSON.stringify").
 *
 * fast-json-stringify also wrote only what the schema declares, so a presenter's extra property was
 * dropped, not sent. With `checkAnswers` (CHECK_ANSWERS, on outside production, so in every test and
 * on a developer's server) each answer is also written by the schema's fast-json-stringify serializer
 * and the two must read the same (same properties, same values, order aside): a property the schema
 * does not declare, a number where it says string, a Date where it says text, fails the request with
 * a 500 that names the route, the status and the first difference. So every answer the suite sees is
 * held to its schema, which is stronger than dropping what does not fit.
 *
 * The check's serializers are compiled on the first answer of each route and status (building about
 * 170 routes' serializers took a sixth of a warm start), or at registration with `when: 'now'`
 * (route-schemas.test.ts, so a schema fast-json-stringify refuses still fails the suite).
 */
import { isDeepStrictEqual } from 'node:util';
import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { firstDifference } from './answer-difference.ts';

type Serialize = (data: unknown) => string;

const compileSerializer = (schema: object): Serialize => fastJsonStringify(schema) as Serialize;

const writeJson: Serialize = (data) => JSON.stringify(data);

/** An answer that does not read as its schema says (checkAnswers). */
export class AnswerSchemaMismatch extends Error {}

/**
 * Fastify's serializer compiler: JSON.stringify, and with `check` the comparison with the schema's own
 * serializer, built at the first answer (the server) or now (a test of every schema).
 */
export const serializerCompiler =
  (options: { check: boolean; when: 'firstUse' | 'now' }): FastifySerializerCompiler<object> =>
  ({ schema, method, url, httpStatus }) => {
    if (!options.check) return writeJson;
    let compiled: Serialize | null = options.when === 'now' ? compileSerializer(schema) : null;
    return (data: unknown) => {
      compiled ??= compileSerializer(schema);
      const written = writeJson(data);
      const declared = compiled(data);
      const [sent, expected] = [JSON.parse(written) as unknown, JSON.parse(declared) as unknown];
      if (!isDeepStrictEqual(sent, expected)) {
        throw new AnswerSchemaMismatch(
          `the ${httpStatus} answer of ${method} ${url} does not read as its schema says: ${firstDifference(sent, expected)}`,
        );
      }
      return written;
    };
  };
