/**
 * How answers are written. A route's declared success schema documents its answer (OpenAPI, the
 * generated client); the answer itself is written by V8's JSON.stringify, which on Node 24 writes
 * our lists in 60 to 85 % of the CPU that fast-json-stringify's generated code took, and leaves less
 * garbage (its concatenated strings): docs/benchmarks.md, "Answers written by JSON.stringify".
 *
 * fast-json-stringify also wrote only what the schema declares, so a presenter's extra property was
 * dropped, not sent. With `checkAnswers` (CHECK_ANSWERS, on unless APP_ENV=production: every test, a
 * developer's server) each answer that has a schema (a route's main success status) is also written by
 * the schema's fast-json-stringify serializer and the two must read the same (same properties, same
 * values, order aside): a property the schema does not declare, a number where it says string, a
 * missing required property, fails the request with a 500 whose detail names the route, the status,
 * where the two differ and the kinds of value there (never the value: it may be what should not be
 * sent). So every answer the suite sees is held to its schema, which is stronger than dropping what
 * does not fit. Presenters therefore build their answers from declared fields, never pass a stored
 * row or document through whole.
 *
 * The check's serializers are compiled on the first answer of each route and status (building about
 * 170 routes' serializers took a sixth of a warm start), or at registration with `when: 'now'`
 * (route-schemas.test.ts, so a schema fast-json-stringify refuses still fails the suite); without the
 * check fast-json-stringify is not even loaded.
 */
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { firstDifference } from './answer-difference.ts';

type Serialize = (data: unknown) => string;
/** What a route's answer is written as: its bytes (below, why not its text). */
type SerializeAnswer = (data: unknown) => Buffer;

let fastJsonStringify: ((schema: object) => Serialize) | null = null;

const compileSerializer = (schema: object): Serialize => {
  fastJsonStringify ??= createRequire(import.meta.url)('fast-json-stringify') as (schema: object) => Serialize;
  return fastJsonStringify(schema);
};

/**
 * The answer's UTF-8 bytes, not its text. Node writes a text body by joining it to the header text and
 * flattening the two into one more copy of the whole answer on V8's heap (about 20 kB of garbage for a
 * page of media, an eighth of what its request left on the heap before); bytes go out beside the header
 * in one `writev`, and Fastify takes their length without counting the text again (docs/benchmarks.md,
 * Session 48).
 */
const writeJson: SerializeAnswer = (data) => Buffer.from(JSON.stringify(data));

/** An answer that does not read as its schema says (checkAnswers). */
export class AnswerSchemaMismatch extends Error {}

/**
 * Fastify's serializer compiler: JSON.stringify, and with `check` the comparison with the schema's own
 * serializer, built at the first answer (the server) or now (a test of every schema).
 */
export const serializerCompiler =
  (options: { check: boolean; when: 'firstUse' | 'now' }): FastifySerializerCompiler<object> =>
  // Fastify's type says a serializer returns text; it sends bytes as they are (reply.js, onSendEnd).
  (route) =>
    answerWriter(options, route) as unknown as Serialize;

function answerWriter(
  options: { check: boolean; when: 'firstUse' | 'now' },
  { schema, method, url, httpStatus }: Parameters<FastifySerializerCompiler<object>>[0],
): SerializeAnswer {
  if (!options.check) return writeJson;
  let compiled: Serialize | null = options.when === 'now' ? compileSerializer(schema) : null;
  const mismatch = (why: string) =>
    new AnswerSchemaMismatch(`the ${httpStatus} answer of ${method} ${url} does not read as its schema says: ${why}`);
  return (data: unknown) => {
    compiled ??= compileSerializer(schema);
    let written: string;
    let declared: string;
    try {
      written = JSON.stringify(data);
      declared = compiled(data);
    } catch (error) {
      // What fast-json-stringify refuses to write (a required property missing, NaN) or JSON.stringify cannot (a BigInt).
      throw mismatch(`it cannot be written: ${(error as Error).message}`);
    }
    const [sent, expected] = [JSON.parse(written) as unknown, JSON.parse(declared) as unknown];
    if (!isDeepStrictEqual(sent, expected)) throw mismatch(firstDifference(sent, expected));
    return Buffer.from(written);
  };
}
