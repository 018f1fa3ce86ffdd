/**
 * The import rules of the code (npm run lint; docs/development.md, How areas talk), each shown to
 * refuse what it is for by test/lint/dependency-rules.test.ts. Tests may reach into what they test,
 * but never into another area's tables or repositories. .ts is parsed with swc, which keeps type-only
 * imports (TypeScript 7 has no compiler API dependency-cruiser can use).
 */
const tests = '\\.test\\.ts$';

export default {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'Dependencies run one way: a module that imports itself back, even for a type, is a cycle.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'routes-never-import-a-module',
      comment:
        'A routes file takes the services it uses and returns route declarations; the area module registers them.',
      severity: 'error',
      from: { path: '\\.(admin-)?routes\\.ts$' },
      to: { path: '\\.module\\.ts$' },
    },
    {
      name: 'areas-meet-through-their-face',
      comment:
        "An area imports another area only through its face: public.ts (its services' types, and the presenters, schemas and helpers others use), read-model.ts (its rows in others' joins) and events.ts (the events it publishes). An area owns its tables: never another area's tables.ts or repository (write through its services, read through its read-model.ts).",
      severity: 'error',
      from: { path: '^src/areas/([^/]+)/', pathNot: tests },
      to: {
        path: '^src/areas/[^/]+/',
        pathNot: ['^src/areas/$1/', '^src/areas/[^/]+/(public|read-model|events)\\.ts$'],
      },
    },
    {
      name: 'platform-never-imports-an-area',
      comment: 'src/platform and src/adapters are below the areas: an area uses them, never the other way round.',
      severity: 'error',
      from: { path: '^src/(platform|adapters)/', pathNot: tests },
      to: { path: '^src/areas/' },
    },
    {
      name: 'tests-own-no-other-areas-tables',
      comment: "A test of an area may read another area's internals, but never its tables or repositories.",
      severity: 'error',
      from: { path: '^src/areas/([^/]+)/.+\\.test\\.ts$' },
      to: { path: '^src/areas/[^/]+/(tables\\.ts|.+\\.repository\\.ts)$', pathNot: '^src/areas/$1/' },
    },
  ],
  options: {
    parser: 'swc',
    includeOnly: '^src/',
    exclude: { path: '^src/areas/web/assets/client/' },
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'] },
  },
};
