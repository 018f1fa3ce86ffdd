/**
 * Resolves the relative imports inside installed packages without Node's per-import package.json read.
 *
 * For every module it resolves, Node 24 looks up the package scope to learn the module's format, and
 * parses that package.json again each time. For a package with a large `exports` map that is costly:
 * drizzle-orm's package.json is 179 kB, and importing its ~230 modules took 0.7 s and left 190 MB of
 * garbage (measured; see docs/benchmarks.md, Start-up). This hook answers those lookups itself: a
 * relative `.js`/`.mjs` import from a file inside node_modules resolves to the file it names, with the
 * format Node would give it (the `type` of the nearest package.json, read once per directory); and
 * a package imported by the project's own files is resolved once, not once per importing file.
 * Everything else goes to Node's own resolution. It must be registered before the modules it speeds
 * up are imported: src/main.ts and src/cli.ts import it first, then the rest dynamically.
 */
import { existsSync, readFileSync } from 'node:fs';
import { type ResolveFnOutput, registerHooks } from 'node:module';

type Format = 'module' | 'commonjs';
/** The format of `.js` files per directory URL, from the nearest package.json (read once). */
const formatOfDirectory = new Map<string, Format>();

/** The root URL of the package holding `url` (…/node_modules/name/ or …/node_modules/@scope/name/). */
function packageRoot(url: string): string | null {
  const match = /^(file:\/\/.*\/node_modules\/(?:@[^/]+\/)?[^/]+\/)/.exec(url);
  return match?.[1] ?? null;
}

/** What Node would decide: the `type` of the nearest package.json from `directory` up to the package root. */
function formatOf(directory: string, root: string): Format {
  const known = formatOfDirectory.get(directory);
  if (known !== undefined) return known;
  const manifest = new URL('package.json', directory);
  let format: Format;
  if (existsSync(manifest)) {
    format =
      (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: string }).type === 'module' ? 'module' : 'commonjs';
  } else {
    format = directory === root ? 'commonjs' : formatOf(new URL('..', directory).href, root);
  }
  formatOfDirectory.set(directory, format);
  return format;
}

/** This project's root (the folder holding src/), whose own files all see its one node_modules. */
const projectRoot = new URL('../../../', import.meta.url).href;

/**
 * A package named by the project's own files (`drizzle-orm/pg-core` from src/…) resolves the same from
 * every one of them, so Node's answer is kept: it reads the package's package.json for each import
 * (drizzle-orm's 179 kB, imported by some 150 files: about 0.4 s of a warm start, measured).
 */
const packagesOfProject = new Map<string, ResolveFnOutput>();

const isPackageName = (specifier: string) =>
  !specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.startsWith('#') && !specifier.includes(':');

registerHooks({
  resolve(specifier, context, nextResolve) {
    const parent = context.parentURL;
    if (
      parent !== undefined &&
      isPackageName(specifier) &&
      parent.startsWith(projectRoot) &&
      !parent.includes('/node_modules/')
    ) {
      const key = `${specifier}\0${context.conditions.join(',')}\0${JSON.stringify(context.importAttributes)}`;
      const known = packagesOfProject.get(key);
      if (known !== undefined) return { ...known, shortCircuit: true };
      const resolved = nextResolve(specifier, context);
      packagesOfProject.set(key, resolved);
      return resolved;
    }
    if (parent !== undefined && specifier.startsWith('.') && /\.m?js$/.test(specifier)) {
      const root = packageRoot(parent);
      const url = new URL(specifier, parent).href;
      // Only within one package (not into a nested node_modules), and only for a file that is there:
      // anything else gets Node's own resolution and its own errors.
      if (
        root !== null &&
        url.startsWith(root) &&
        !url.slice(root.length).includes('node_modules/') &&
        existsSync(new URL(url))
      ) {
        const format = specifier.endsWith('.mjs') ? 'module' : formatOf(new URL('.', url).href, root);
        return { url, format, shortCircuit: true };
      }
    }
    // The project's own TypeScript files, from one another: the file named, as Node would find it, but
    // without Node's realpath of each import's path (about a tenth of the resolution's time at start).
    if (
      parent !== undefined &&
      specifier.startsWith('.') &&
      specifier.endsWith('.ts') &&
      context.conditions.includes('import') &&
      parent.startsWith(projectRoot) &&
      !parent.includes('/node_modules/')
    ) {
      const url = new URL(specifier, parent).href;
      if (url.startsWith(projectRoot) && !url.includes('/node_modules/') && existsSync(new URL(url))) {
        const format =
          formatOf(new URL('.', url).href, projectRoot) === 'module' ? 'module-typescript' : 'commonjs-typescript';
        return { url, format, shortCircuit: true };
      }
    }
    return nextResolve(specifier, context);
  },
});
