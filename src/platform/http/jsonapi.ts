/**
 * JSON:API 1.1 documents (application/vnd.api+json): builders for handlers and TypeBox schemas for
 * routes, so validation, serialization and the OpenAPI document all come from one description.
 */
import { type Static, type TSchema, type TUnsafe, Type } from 'typebox';

export const jsonApiMediaType = 'application/vnd.api+json';

export interface ResourceIdentifier {
  type: string;
  id: string;
}

export interface ResourceObject<A = Record<string, unknown>> extends ResourceIdentifier {
  attributes: A;
  relationships?: Record<string, { data: ResourceIdentifier | ResourceIdentifier[] | null }>;
  links?: Record<string, string>;
}

export function resource<A>(
  type: string,
  id: string,
  attributes: A,
  relationships?: ResourceObject['relationships'],
): ResourceObject<A> {
  return relationships ? { type, id, attributes, relationships } : { type, id, attributes };
}

export const relation = (type: string, id: string | null) => ({ data: id === null ? null : { type, id } });

export interface Links {
  self: string;
  first?: string;
  prev?: string | null;
  next?: string | null;
}

export function document<T>(
  data: T,
  extras: { meta?: Record<string, unknown>; links?: Links; included?: unknown[] } = {},
) {
  return { data, ...extras };
}

// ---- schemas -------------------------------------------------------------------------------------

/**
 * T or null. A schema of one JSON type becomes `type: [T, 'null']` (OpenAPI 3.1), which clients'
 * generators read as a nullable T and the answer check's fast-json-stringify writes directly (an anyOf
 * makes it run a validator on every value). Other schemas stay an anyOf.
 */
export const Nullable = <T extends TSchema>(schema: T): TUnsafe<Static<T> | null> => {
  const type = (schema as { type?: unknown }).type;
  if (typeof type !== 'string') return Type.Union([schema, Type.Null()]) as never;
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] }) as never;
};

/** One of the given strings, as `type: string` with an `enum` (written directly, unlike a union of literals). */
export const StringEnum = <const V extends readonly string[]>(values: V, options: { description?: string } = {}) =>
  Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...options });
export const Timestamp = Type.String({ format: 'date-time', description: 'RFC 3339 with numeric offset' });
export const Uuid = Type.String({ format: 'uuid' });

export const RelationshipSchema = (type: string) =>
  Type.Object({ data: Nullable(Type.Object({ type: Type.Literal(type), id: Type.String() })) });

const AnyObject = Type.Object({}, { additionalProperties: true });

/**
 * A resource of `type`; `name` names its schema in the OpenAPI document (default: the type), for
 * resources of one type shown in several shapes (a public user and one's own, say).
 */
export function ResourceSchema<A extends TSchema, R extends TSchema = typeof AnyObject>(
  type: string,
  attributes: A,
  relationships?: R,
  name: string = type,
) {
  return Type.Object(
    {
      type: Type.Literal(type),
      id: Type.String(),
      attributes,
      relationships: Type.Optional((relationships ?? AnyObject) as R),
    },
    { title: name },
  );
}

export const LinksSchema = Type.Object({
  self: Type.String(),
  first: Type.Optional(Type.String()),
  prev: Type.Optional(Nullable(Type.String())),
  next: Type.Optional(Nullable(Type.String())),
});

export function DocumentSchema<
  R extends TSchema,
  I extends TSchema = typeof AnyObject,
  M extends TSchema = typeof AnyObject,
>(data: R, extras: { included?: I; meta?: M } = {}) {
  return Type.Object({
    data,
    included: Type.Optional(Type.Array((extras.included ?? AnyObject) as I)),
    meta: Type.Optional((extras.meta ?? AnyObject) as M),
  });
}

/** A paginated collection: data array, root meta (at least limit) and links self/first/prev/next. */
export function CollectionSchema<
  R extends TSchema,
  // biome-ignore lint/complexity/noBannedTypes: no extra meta fields; Record<string, never> breaks the spread's inference
  M extends Record<string, TSchema> = {},
  I extends TSchema = typeof AnyObject,
>(item: R, meta: M = {} as M, included?: I) {
  return Type.Object({
    data: Type.Array(item),
    included: Type.Optional(Type.Array((included ?? AnyObject) as I)),
    meta: Type.Object({ limit: Type.Integer(), ...meta }),
    links: LinksSchema,
  });
}

export const ErrorDocumentSchema = Type.Object(
  {
    errors: Type.Array(
      Type.Object({
        status: Type.String(),
        code: Type.String(),
        title: Type.String(),
        detail: Type.Optional(Type.String()),
        source: Type.Optional(
          Type.Object({
            pointer: Type.Optional(Type.String()),
            parameter: Type.Optional(Type.String()),
            header: Type.Optional(Type.String()),
          }),
        ),
        meta: Type.Optional(Type.Object({}, { additionalProperties: true })),
      }),
      { description: 'At most 20 errors; `meta.errorsOmitted` counts the rest' },
    ),
    meta: Type.Optional(
      Type.Object(
        {
          errorsOmitted: Type.Optional(Type.Integer({ description: 'errors found but not listed' })),
          maxErrorsShown: Type.Optional(Type.Integer()),
          validationStoppedEarly: Type.Optional(
            Type.Boolean({ description: 'a large body was checked up to its first error only' }),
          ),
        },
        { additionalProperties: true },
      ),
    ),
  },
  { title: 'ErrorDocument' },
);
