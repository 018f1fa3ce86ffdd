/**
 * The OpenAPI document as outside tools use it: it passes `redocly lint` (recommended rules, and every
 * tag declared with a description) with no error and no warning but those docs/api.md explains, and a
 * typed client generated from it (openapi-typescript + openapi-fetch) compiles and reads a typed error
 * from the running service. The generated code goes to .tmp/ (git-ignored).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import createClient from 'openapi-fetch';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/factories.ts';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
const workDir = join(root, '.tmp', `openapi-${process.pid}`);
const bin = (path: string) => join(root, path);

/** The rules the document is held to (JSON is YAML). */
const lintConfig = {
  extends: ['recommended'],
  rules: { 'operation-tag-defined': 'error', 'tag-description': 'error' },
};
/** Warnings docs/api.md (OpenAPI) explains, each silenced for its path only. */
const explainedWarnings = {
  // The interface's paths: /api/media/comments/likes fits both, and is 422 (neither part is an id).
  'no-ambiguous-paths': ['#/paths/~1api~1media~1comments~1{commentId}', '#/paths/~1api~1media~1{mediaId}~1reports'],
  // Redirects of the web pages: 302 is their success.
  'operation-2xx-response': [
    '#/paths/~1go~1offer~1{id}/get/responses',
    '#/paths/~1go~1offer~1{id}~1media~1{mediaId}/get/responses',
    '#/paths/~1language~1{locale}/get/responses',
    '#/paths/~1logout/post/responses',
    '#/paths/~1security~1passkeys~1{id}~1delete/post/responses',
  ],
};

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

describe('OpenAPI for outside tools', () => {
  let t: TestApp;
  let specPath: string;
  before(async () => {
    t = await createTestApp();
    mkdirSync(workDir, { recursive: true });
    specPath = join(workDir, 'openapi.json');
    writeFileSync(specPath, (await t.request({ method: 'GET', url: '/api/openapi.json' })).body);
  });
  after(async () => {
    await t.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('passes redocly lint with no error and no warning but the explained ones', async () => {
    writeFileSync(join(workDir, 'redocly.yaml'), JSON.stringify(lintConfig));
    writeFileSync(join(workDir, '.redocly.lint-ignore.yaml'), JSON.stringify({ 'openapi.json': explainedWarnings }));
    const { stdout, stderr } = await run(
      process.execPath,
      [bin('node_modules/@redocly/cli/bin/cli.js'), 'lint', specPath, '--format', 'json'],
      {
        cwd: workDir,
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((error: { stdout: string; stderr: string }) => error);
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as LintReport;
    const problems = report.problems.map(
      (problem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`,
    );
    assert.deepEqual(problems, [], stderr);
    assert.deepEqual([report.totals.errors, report.totals.warnings], [0, 0]);
    // Each explained warning is still there: an entry left once its warning is fixed would silence the next one there.
    assert.equal(report.totals.ignored, Object.values(explainedWarnings).flat().length);
  });

  it('generates a typed client that compiles and reads a typed error from the service', {
    timeout: 120_000,
  }, async () => {
    await run(
      process.execPath,
      [
        bin('tools/openapi-client-generator/node_modules/openapi-typescript/bin/cli.js'),
        specPath,
        '-o',
        join(workDir, 'schema.d.ts'),
      ],
      {
        cwd: workDir,
      },
    );
    // A client author's code, type-checked against the generated types: errors are typed documents.
    writeFileSync(
      join(workDir, 'usage.ts'),
      `import createClient from 'openapi-fetch';
import type { paths } from './schema.d.ts';
export async function myNotifications(baseUrl: string, token: string): Promise<string> {
  const client = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${token}\` } });
  const res = await client.GET('/api/users/me/notifications', { params: { query: { limit: 5 } } });
  if (res.error) return res.error.errors[0]!.code;
  return res.data.data.map((item) => item.attributes.type).join(',');
}
// A duplicate click (200) is typed as the click a first one creates (201); a 204 has no content.
type Clicks = paths['/api/offers/{id}/clicks']['post']['responses'];
export const earlierClick = (
  duplicate: Clicks[200]['content']['application/vnd.api+json'],
): Clicks[201]['content']['application/vnd.api+json'] => duplicate;
export const signedOut: paths['/api/auth/logout']['post']['responses'][204]['content'] = undefined;
`,
    );
    writeFileSync(
      join(workDir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          allowImportingTsExtensions: true,
          types: [],
        },
        files: ['usage.ts'],
      }),
    );
    const compiled = await run(process.execPath, [bin('node_modules/typescript/lib/tsc.js'), '-p', workDir]).catch(
      (error: { stdout: string }) => error,
    );
    assert.equal(compiled.stdout.trim(), '', `the generated client does not compile:\n${compiled.stdout}`);

    // The same calls at run time, over HTTP, against the service.
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const client = createClient<any>({ baseUrl });
    const refused = await client.GET('/api/users/me/notifications', {});
    assert.equal(refused.response.status, 401);
    assert.equal(refused.error.errors[0].code, 'unauthenticated');
    const user = await createUser(t);
    const authed = createClient<any>({ baseUrl, headers: { authorization: `Bearer ${user.token}` } });
    const ok = await authed.GET('/api/users/me/notifications', { params: { query: { limit: 5 } } });
    assert.equal(ok.response.status, 200);
    assert.deepEqual(ok.data.data, []);
  });
});
