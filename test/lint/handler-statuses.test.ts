/**
 * Statuses are declared by the route, never set by a handler (docs/development.md, Adding a route):
 * no code of an area calls `status()` or `code()` on a reply; a handler returns an answer of
 * platform/http/answers.ts instead.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const areas = new URL('../../src/areas/', import.meta.url);

describe('statuses set by handlers', () => {
  it('finds no reply.status() or reply.code() in the areas', () => {
    const files = readdirSync(areas, { recursive: true, encoding: 'utf8' }).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
    );
    const setters = files.flatMap((file) =>
      readFileSync(new URL(file, areas), 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          /\.\s*(status|code)\s*\(/.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
    assert.deepEqual(setters, []);
  });
});
