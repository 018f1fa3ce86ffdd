/**
 * The resolution hook gives each module the format Node itself would: packages of either type, a
 * nested package.json that changes the type of a folder, .mjs files, and a missing file still failing
 * as Node fails it. Each case runs in a fresh Node with the hook registered first, as src/main.ts does.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const hook = fileURLToPath(new URL('./fast-package-resolution.ts', import.meta.url));
// Inside the project (its .tmp, ignored by git), so the cases are files of the project, as src/ is.
const projectTmp = fileURLToPath(new URL('../../../.tmp/', import.meta.url));
mkdirSync(projectTmp, { recursive: true });
const root = mkdtempSync(join(projectTmp, 'resolution-'));

function write(path: string, text: string) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

// An ESM package whose modules import each other, one through a .mjs file.
write('node_modules/esm-pkg/package.json', JSON.stringify({ type: 'module', exports: './index.js' }));
write(
  'node_modules/esm-pkg/index.js',
  "export { value } from './lib/value.js';\nexport { twice } from './lib/twice.mjs';",
);
write('node_modules/esm-pkg/lib/value.js', 'export const value = 21;');
write('node_modules/esm-pkg/lib/twice.mjs', "import { value } from './value.js';\nexport const twice = value * 2;");
// A CommonJS package with an ESM folder marked by a nested package.json (as dual packages ship).
write(
  'node_modules/dual-pkg/package.json',
  JSON.stringify({ exports: { import: './esm/index.js', require: './cjs/index.js' } }),
);
write('node_modules/dual-pkg/esm/package.json', JSON.stringify({ type: 'module' }));
write('node_modules/dual-pkg/esm/index.js', "import { name } from './name.js';\nexport const kind = 'esm ' + name;");
write('node_modules/dual-pkg/esm/name.js', "export const name = 'dual';");
write('node_modules/dual-pkg/cjs/index.js', "const { name } = require('./name.js');\nexports.kind = 'cjs ' + name;");
write('node_modules/dual-pkg/cjs/name.js', "exports.name = 'dual';");
// A package importing a file that does not exist.
write('node_modules/broken-pkg/package.json', JSON.stringify({ type: 'module', exports: './index.js' }));
write('node_modules/broken-pkg/index.js', "export * from './missing.js';");

// The project's own TypeScript files (the cases live inside the project, as src/ does).
write('ts/sum.ts', "import { base } from './base.ts';\nexport const sum: number = base + 1;");
write('ts/base.ts', 'export const base: number = 41;');
write('ts/broken.ts', "export * from './missing.ts';");

async function evaluate(code: string): Promise<{ stdout: string; stderr: string; code: number }> {
  const script = join(root, `case-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(script, `await import(${JSON.stringify(hook)});\n${code}`);
  try {
    const { stdout, stderr } = await run(process.execPath, [script], { cwd: root });
    return { stdout: stdout.trim(), stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout.trim(), stderr: failed.stderr, code: failed.code };
  }
}

describe('fast package resolution', () => {
  after(() => rmSync(root, { recursive: true, force: true }));

  it('loads an ESM package through its relative .js and .mjs imports', async () => {
    const result = await evaluate("const m = await import('esm-pkg'); console.log(m.value, m.twice);");
    assert.equal(result.stdout, '21 42', result.stderr);
  });

  it('follows a nested package.json: the ESM folder of a CommonJS package, and its CommonJS side', async () => {
    const result = await evaluate(
      "import { createRequire } from 'node:module';\n" +
        "const esm = await import('dual-pkg'); const cjs = createRequire(import.meta.url)('dual-pkg');\n" +
        'console.log(esm.kind, "|", cjs.kind);',
    );
    assert.equal(result.stdout, 'esm dual | cjs dual', result.stderr);
  });

  it("resolves a package imported by several of the project's files once per condition: import and require still differ", async () => {
    write('importer-a.mjs', "export { kind } from 'dual-pkg';");
    write('sub/importer-b.mjs', "export { kind } from 'dual-pkg';");
    const result = await evaluate(
      "import { createRequire } from 'node:module';\n" +
        "const a = await import('./importer-a.mjs'); const b = await import('./sub/importer-b.mjs');\n" +
        "console.log(a.kind, '|', b.kind, '|', createRequire(import.meta.url)('dual-pkg').kind);",
    );
    assert.equal(result.stdout, 'esm dual | esm dual | cjs dual', result.stderr);
  });

  it("resolves the project's own .ts imports to the same modules Node's resolution gives", async () => {
    // A hook registered after it sees its answers: the relative .ts imports get the URL and format
    // Node's own resolution gives the same file (asked by absolute URL), and so the same module.
    const result = await evaluate(
      "import { registerHooks } from 'node:module';\n" +
        'const seen = [];\n' +
        'registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context);' +
        " if (specifier.endsWith('.ts')) seen.push(r.url.slice(r.url.lastIndexOf('/ts/')) + ' ' + r.format); return r; } });\n" +
        "const viaHook = await import('./ts/sum.ts');\n" +
        "const viaNode = await import(new URL('./ts/base.ts', import.meta.url).href);\n" +
        "const again = await import('./ts/base.ts');\n" +
        "console.log(viaHook.sum, viaNode === again, '|', seen.join(', '));",
    );
    assert.equal(
      result.stdout,
      '42 true | /ts/sum.ts module-typescript, /ts/base.ts module-typescript, /ts/base.ts module-typescript, /ts/base.ts module-typescript',
      result.stderr,
    );
  });

  it('leaves a missing .ts file to Node, which fails with its own error', async () => {
    const result = await evaluate("await import('./ts/broken.ts');");
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /ERR_MODULE_NOT_FOUND/);
  });

  it('leaves a missing file to Node, which fails with its own error', async () => {
    const result = await evaluate("await import('broken-pkg');");
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /ERR_MODULE_NOT_FOUND/);
  });
});
