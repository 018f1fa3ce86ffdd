/**
 * Start-up cost: Fedify is loaded only when federation starts working (the first federated request or
 * queue run with FEDERATION=on). Only federation-setup.ts and its handlers (inbound/, outbound/) import it
 * as values, and that module is
 * only ever imported dynamically, so a service with FEDERATION off (and one on, until it is used)
 * never loads it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';

const srcRoot = new URL('../../', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Modules of Fedify's values that federation-setup.ts re-exports (so reached only through it). */
const lazyModules = [
  'areas/federation/outbound-follow-activities.ts',
  'areas/federation/remote-posts/remote-post-activities.ts',
];

/** The modules of outbound/ that import Fedify's values (the rest of outbound/ is plain data and SQL). */
const fedifyModules = ['post-note.ts', 'post-activities.ts', 'followers-collection.ts', 'outbox-collection.ts'];

/** Files that may import Fedify's values: the inbox handlers, and outbound's modules of activities. */
const fedifySide = (path: string) =>
  path.startsWith('areas/federation/inbound/') ||
  lazyModules.includes(path) ||
  fedifyModules.some((module) => path === `areas/federation/outbound/${module}`);

const files = sourceFiles(srcRoot).map((path) => ({ path: relative(srcRoot, path), text: readFileSync(path, 'utf8') }));

describe('Fedify is imported lazily', () => {
  it('is imported as values by federation-setup.ts, its inbox handlers (inbound/) and outbound/ alone', () => {
    const importing = files
      .filter(({ text }) => /^import (?!type )[^;]*from '@fedify\//m.test(text))
      .map(({ path }) => path);
    assert.ok(importing.includes('areas/federation/federation-setup.ts'));
    for (const path of importing) {
      assert.ok(path === 'areas/federation/federation-setup.ts' || fedifySide(path), path);
    }
  });

  it('reaches the inbox handlers (inbound/) and the activities sent (outbound/) as values only from federation-setup.ts', () => {
    for (const { path, text } of files) {
      if (path === 'areas/federation/federation-setup.ts' || fedifySide(path)) continue;
      assert.doesNotMatch(text, /^import (?!type )[^;]*from '[^']*inbound\//m, path);
      for (const module of fedifyModules)
        assert.doesNotMatch(text, new RegExp(`^import (?!type )[^;]*from '[^']*outbound/${module}'`, 'm'), path);
    }
  });

  it('reaches the modules federation-setup.ts re-exports only through it', () => {
    for (const { path, text } of files) {
      if (path === 'areas/federation/federation-setup.ts') continue;
      for (const lazy of lazyModules.map((module) => module.split('/').pop() as string)) {
        assert.doesNotMatch(text, new RegExp(`^import (?!type )[^;]*from '[^']*${lazy}'`, 'm'), path);
      }
    }
  });

  it('reaches federation-setup.ts only through a dynamic import', () => {
    const naming = files.filter(({ text }) => text.includes('federation-setup.ts'));
    assert.ok(naming.length > 0);
    for (const { path, text } of naming) {
      for (const line of text.split('\n').filter((l) => l.includes('federation-setup.ts'))) {
        assert.ok(
          /await import\('\.\/federation-setup\.ts'\)/.test(line) || /^\s*(\*|\/\/)/.test(line),
          `${path}: ${line.trim()}`,
        );
      }
    }
  });
});
