/**
 * The import rules of the code (npm run lint; docs/development.md, How areas talk). Tests are left
 * out: they may reach into what they test. .ts is parsed with swc (TypeScript 7 has no compiler API
 * that dependency-cruiser can use).
 */
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
        "An area imports another area only through its public face: public.ts (service types, schemas, presenters others use) and read-model.ts (its rows in others' joins). Never its tables, repositories or any other file.",
      severity: 'error',
      from: { path: '^src/areas/([^/]+)/' },
      to: {
        path: '^src/areas/[^/]+/',
        pathNot: ['^src/areas/$1/', '^src/areas/[^/]+/(public|read-model)\\.ts$'],
      },
    },
    {
      name: 'platform-never-imports-an-area',
      comment: 'src/platform and src/adapters are below the areas: an area uses them, never the other way round.',
      severity: 'error',
      from: { path: '^src/(platform|adapters)/' },
      to: { path: '^src/areas/' },
    },
  ],
  options: {
    parser: 'swc',
    includeOnly: '^src/',
    exclude: { path: ['\\.test\\.ts$', '^src/areas/web/assets/client/'] },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'] },
  },
};
