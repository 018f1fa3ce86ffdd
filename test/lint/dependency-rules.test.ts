/**
 * The import rules of .dependency-cruiser.mjs (run by npm run lint) each refuse what they are for: a
 * fixture tree with one violation of each, and imports that follow the rules, cruised with the
 * project's own configuration.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));
const depcruise = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');

/** Fixture files (path -> source); every import is type-only where it could be, as the cycles were. */
const fixture: Record<string, string> = {
  // A cycle of type-only imports.
  'src/platform/first.ts': "import type { Second } from './second.ts';\nexport type First = { second?: Second };\n",
  'src/platform/second.ts': "import type { First } from './first.ts';\nexport type Second = { first?: First };\n",
  // A routes file importing its module.
  'src/areas/alpha/alpha.module.ts': "export const alphaArea = { name: 'alpha' };\n",
  'src/areas/alpha/alpha.routes.ts':
    "import type { alphaArea } from './alpha.module.ts';\nexport const alphaRoutes = (_: typeof alphaArea) => [];\n",
  'src/areas/alpha/alpha.service.ts': 'export class AlphaService {}\n',
  'src/areas/alpha/tables.ts': 'export const alphaRows = {};\n',
  'src/areas/alpha/public.ts': "export type { AlphaService } from './alpha.service.ts';\n",
  'src/areas/alpha/read-model.ts': "export { alphaRows } from './tables.ts';\n",
  // Another area reaching past alpha's face, and going through it.
  'src/areas/beta/beta.service.ts':
    "import type { AlphaService } from '../alpha/alpha.service.ts';\nexport type Beta = AlphaService;\n",
  'src/areas/beta/beta.repository.ts':
    "import { alphaRows } from '../alpha/tables.ts';\nimport { alphaRows as rows } from '../alpha/read-model.ts';\nexport const both = [alphaRows, rows];\n",
  'src/areas/beta/beta-face.ts':
    "import type { AlphaService } from '../alpha/public.ts';\nexport type Gamma = AlphaService;\n",
  // A test of beta: alpha's internals, but not its tables.
  'src/areas/beta/beta.test.ts':
    "import { AlphaService } from '../alpha/alpha.service.ts';\nimport { alphaRows } from '../alpha/tables.ts';\nexport const used = [AlphaService, alphaRows];\n",
  // The platform and the adapters reaching an area.
  'src/platform/uses-area.ts':
    "import type { AlphaService } from '../areas/alpha/public.ts';\nexport type P = AlphaService;\n",
  'src/adapters/uses-area.ts': "import type { Beta } from '../areas/beta/beta.service.ts';\nexport type A = Beta;\n",
};

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

describe('dependency rules (npm run lint)', () => {
  let directory: string;
  let violations: Violation[];

  before(async () => {
    directory = mkdtempSync(join(tmpdir(), 'depcruise-'));
    for (const [path, source] of Object.entries(fixture)) {
      mkdirSync(dirname(join(directory, path)), { recursive: true });
      writeFileSync(join(directory, path), source);
    }
    const args = [depcruise, 'src', '--config', join(root, '.dependency-cruiser.mjs'), '--output-type', 'json'];
    const output = await promisify(execFile)(process.execPath, args, { cwd: directory }).catch(
      (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
    );
    violations = JSON.parse(output.stdout).summary.violations;
  });
  after(() => rmSync(directory, { recursive: true, force: true }));

  const found = (rule: string) =>
    violations
      .filter((violation) => violation.rule.name === rule)
      .map(({ from, to }) => `${from} -> ${to}`)
      .sort();

  it('refuses a cycle, even of type-only imports', () => {
    assert.deepEqual(found('no-cycles'), ['src/platform/first.ts -> src/platform/second.ts']);
  });

  it('refuses a routes file importing a module', () => {
    assert.deepEqual(found('routes-never-import-a-module'), [
      'src/areas/alpha/alpha.routes.ts -> src/areas/alpha/alpha.module.ts',
    ]);
  });

  it("refuses an import of another area's file but its public.ts, read-model.ts and events.ts", () => {
    assert.deepEqual(found('areas-meet-through-their-face'), [
      'src/areas/beta/beta.repository.ts -> src/areas/alpha/tables.ts',
      'src/areas/beta/beta.service.ts -> src/areas/alpha/alpha.service.ts',
    ]);
  });

  it("refuses a test importing another area's tables or repository (and nothing else of it)", () => {
    assert.deepEqual(found('tests-own-no-other-areas-tables'), [
      'src/areas/beta/beta.test.ts -> src/areas/alpha/tables.ts',
    ]);
    assert.deepEqual(
      found('areas-meet-through-their-face').filter((line) => line.includes('.test.ts')),
      [],
    );
  });

  it('refuses src/platform or src/adapters importing an area', () => {
    assert.deepEqual(found('platform-never-imports-an-area'), [
      'src/adapters/uses-area.ts -> src/areas/beta/beta.service.ts',
      'src/platform/uses-area.ts -> src/areas/alpha/public.ts',
    ]);
  });

  it('lets an area import another through its face, and its own files', () => {
    const allowed = violations.filter(
      ({ from, to }) =>
        from === 'src/areas/beta/beta-face.ts' ||
        to === 'src/areas/alpha/read-model.ts' ||
        (from.startsWith('src/areas/alpha/') && to.startsWith('src/areas/alpha/') && !to.endsWith('.module.ts')),
    );
    assert.deepEqual(allowed, []);
  });
});
