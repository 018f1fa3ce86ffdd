/**
 * Two Ajv instances: bodies are validated strictly (no type coercion, unknown fields refused by the
 * schemas), while query strings, path parameters and headers coerce, since they arrive as text.
 *
 * A body is first checked by a validator that stops at its first error, which is all a valid body
 * costs. Only an invalid body of at most `maxValuesForAllErrors` values is checked again for every
 * error, so a large invalid body (say 60,000 unknown keys) costs one early stop, never one error
 * object per key. The error handler shows at most `maxErrorsShown` of them (error-handler.ts).
 *
 * Validators are compiled on the first request that needs them, not when routes are registered:
 * compiling every route's schemas took about a third of a warm start and kept code for routes an
 * instance may never serve. A test compiles them all at registration (route-schemas.test.ts), so a
 * schema Ajv refuses still fails the suite, not a request.
 */
import Ajv, { type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

/** Bodies with more values than this are reported by their first error only. */
export const maxValuesForAllErrors = 200;

function makeAjv(options: Options) {
  const ajv = new Ajv.default({
    allErrors: true,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
    ...options,
  });
  addFormats.default(ajv);
  return ajv;
}

const bodyAjv = makeAjv({ coerceTypes: false });
const firstErrorBodyAjv = makeAjv({ coerceTypes: false, allErrors: false });
const textAjv = makeAjv({ coerceTypes: 'array' });

/** Whether `value` holds at most `limit` values (objects, arrays and scalars), counted with an early stop. */
export function hasAtMostValues(value: unknown, limit: number): boolean {
  let budget = limit;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    budget -= 1;
    if (budget < 0) return false;
    if (Array.isArray(next)) pending.push(...next.slice(0, budget + 1));
    else if (next !== null && typeof next === 'object') {
      let added = 0;
      for (const key in next) {
        if (!Object.hasOwn(next, key)) continue;
        pending.push((next as Record<string, unknown>)[key]);
        added += 1;
        if (added > budget) break;
      }
    }
  }
  return true;
}

function bodyValidator(schema: object): ValidateFunction {
  const firstError = firstErrorBodyAjv.compile(schema);
  const allErrors = bodyAjv.compile(schema);
  const validate = ((data: unknown) => {
    if (firstError(data)) {
      validate.errors = null;
      return true;
    }
    const exhaustive = hasAtMostValues(data, maxValuesForAllErrors);
    if (exhaustive) allErrors(data);
    validate.errors = exhaustive ? allErrors.errors : firstError.errors;
    return false;
  }) as ValidateFunction;
  return validate;
}

function compileValidator(schema: object, httpPart: string | undefined): ValidateFunction {
  return httpPart === 'body' ? bodyValidator(schema) : textAjv.compile(schema);
}

/** A validator that compiles itself at its first call; Fastify reads `errors` off the function it was given. */
function compiledOnFirstUse(compile: () => ValidateFunction): ValidateFunction {
  let compiled: ValidateFunction | null = null;
  const validate = ((data: unknown) => {
    compiled ??= compile();
    const valid = compiled(data) as boolean;
    validate.errors = compiled.errors;
    return valid;
  }) as ValidateFunction;
  return validate;
}

/** Fastify's validator compiler: compiling at the first request (the server), or now (a test of every schema). */
export const validatorCompiler =
  (when: 'firstUse' | 'now'): FastifySchemaCompiler<object> =>
  ({ schema, httpPart }) =>
    (when === 'now'
      ? compileValidator(schema, httpPart)
      : compiledOnFirstUse(() => compileValidator(schema, httpPart))) as ReturnType<FastifySchemaCompiler<object>>;
