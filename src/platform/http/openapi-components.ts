/**
 * Named, reusable component schemas for the OpenAPI document: every inline schema that carries a
 * `title` (resource schemas are titled with their JSON:API type) moves to `components.schemas` under a
 * PascalCase name and is replaced by a `$ref`, so generated clients get one named type per resource.
 * Two different schemas with the same title get distinct names (a numeric suffix).
 */
import type { TSchema } from 'typebox';

type Json = Record<string, unknown>;

const pascalCase = (title: string) =>
  title
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function hoistComponents(spec: Json, named: Record<string, TSchema>): Json {
  const components = (spec.components ?? {}) as Json;
  const schemas = ((components.schemas as Json | undefined) ?? {}) as Record<string, Json>;
  const byJson = new Map<string, string>();
  const register = (name: string, schema: Json): string => {
    const json = JSON.stringify(schema);
    const known = byJson.get(json);
    if (known !== undefined) return known;
    let unique = name;
    for (let n = 2; unique in schemas; n++) unique = `${name}${n}`;
    schemas[unique] = schema;
    byJson.set(json, unique);
    return unique;
  };
  for (const [name, schema] of Object.entries(named)) register(name, JSON.parse(JSON.stringify(schema)));

  /** Replaces titled sub-schemas, deepest first, by references to named components. */
  const hoist = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(hoist);
    if (!isObject(value)) return value;
    const copy: Json = {};
    for (const [key, inner] of Object.entries(value))
      copy[key] = key === 'example' || key === 'examples' ? inner : hoist(inner);
    if (typeof copy.title === 'string' && (copy.type === 'object' || copy.anyOf || copy.oneOf)) {
      return { $ref: `#/components/schemas/${register(pascalCase(copy.title), copy)}` };
    }
    return copy;
  };
  const paths = hoist(spec.paths) as Json;
  return { ...spec, paths, components: { ...components, schemas } };
}
