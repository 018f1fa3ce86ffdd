/**
 * The pages' client assets, built once per process the first time a page or an asset asks for them:
 * esbuild bundles the client entry points (TypeScript and CSS in ./client; Leaflet and its images from
 * npm) in memory, and the map's shapes are copied from `world-atlas`. Every file is served under
 * `/assets/<name>.<hash>.<ext>` (the hash of its content, so the URL changes when the file does and
 * browsers may keep it for a year). Nothing is written to disk and nothing loads from another origin.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, extname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export interface ClientAsset {
  /** The served file name, `<name>.<hash>.<ext>`. */
  file: string;
  contentType: string;
  body: Buffer;
  /** The gzip form, made the first time a client that accepts it asks. */
  gzipped?: Buffer;
}

export interface ClientAssets {
  /** Logical name (`explorer.js`, `world-110m.json`) -> URL path (`/assets/explorer.1a2b3c4d.js`). */
  urls: ReadonlyMap<string, string>;
  /** Served file name -> the file. */
  files: ReadonlyMap<string, ClientAsset>;
}

export const assetsPath = '/assets';
const clientDir = fileURLToPath(new URL('./client/', import.meta.url));
const require = createRequire(import.meta.url);

/** Entry points bundled by esbuild; each one's logical name is its file name with `.ts` read as `.js`. */
export const clientEntries = [
  'explorer.ts',
  'explorer.css',
  'login.ts',
  'login.css',
  'security.ts',
  'trip.ts',
  'trip.css',
  'carousel.ts',
  'device-push.ts',
  'push-worker.ts',
] as const;

/** Files served as they are: the map's country shapes (Natural Earth through world-atlas), coarse and finer. */
const staticFiles = [
  { name: 'world-110m.json', path: require.resolve('world-atlas/countries-110m.json') },
  { name: 'world-50m.json', path: require.resolve('world-atlas/countries-50m.json') },
] as const;

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

const otherContentType = 'application/octet-stream';
/** Every Content-Type an asset may be sent with (the route documents them). */
export const assetContentTypes = [...Object.values(contentTypes), otherContentType];

const shortHash = (body: Buffer) => createHash('sha256').update(body).digest('base64url').slice(0, 12);

function logicalName(entry: string): string {
  return entry.endsWith('.ts') ? `${entry.slice(0, -3)}.js` : entry;
}

async function bundle(): Promise<ClientAssets> {
  // esbuild's module loaded here: a start that serves no page needs none of it.
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: clientEntries.map((entry) => `${clientDir}${entry}`),
    bundle: true,
    write: false,
    outdir: `${clientDir}out`,
    entryNames: '[name].[hash]',
    assetNames: '[name].[hash]',
    publicPath: assetsPath,
    format: 'iife',
    platform: 'browser',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    minify: true,
    legalComments: 'none',
    metafile: true,
    loader: { '.png': 'file', '.svg': 'file' },
    logLevel: 'silent',
  });
  const files = new Map<string, ClientAsset>();
  const urls = new Map<string, string>();
  const outdir = `${clientDir}out`;
  for (const output of result.outputFiles) {
    const file = relative(outdir, output.path);
    files.set(file, {
      file,
      contentType: contentTypes[extname(file)] ?? otherContentType,
      body: Buffer.from(output.contents),
    });
  }
  for (const [path, output] of Object.entries(result.metafile.outputs)) {
    if (output.entryPoint === undefined) continue;
    const entry = basename(output.entryPoint);
    urls.set(logicalName(entry), `${assetsPath}/${basename(path)}`);
  }
  for (const { name, path } of staticFiles) {
    const body = await readFile(path);
    const extension = extname(name);
    const file = `${name.slice(0, -extension.length)}.${shortHash(body)}${extension}`;
    files.set(file, { file, contentType: contentTypes[extension] ?? otherContentType, body });
    urls.set(name, `${assetsPath}/${file}`);
  }
  for (const entry of clientEntries) {
    if (!urls.has(logicalName(entry))) throw new Error(`client asset ${entry} was not built`);
  }
  return { urls, files };
}

let building: Promise<ClientAssets> | null = null;
let built: ClientAssets | null = null;

/** The assets, bundled on the first call (a few hundred milliseconds), then the same for the process. */
export function loadClientAssets(): Promise<ClientAssets> {
  building ??= bundle().then(
    (assets) => {
      built = assets;
      return assets;
    },
    (error: unknown) => {
      building = null; // a later request tries again
      throw error;
    },
  );
  return building;
}

/**
 * The URL of a logical asset (`explorer.js`) for a page. Pages call `await loadClientAssets()` first
 * (their handlers do), so this stays synchronous inside the markup.
 */
export function assetUrl(name: string): string {
  if (built === null) throw new Error('assetUrl called before loadClientAssets() finished');
  const url = built.urls.get(name);
  if (url === undefined) throw new Error(`unknown client asset ${name}`);
  return url;
}

/** The gzip form of an asset, made once. */
export function gzippedBody(asset: ClientAsset): Buffer {
  asset.gzipped ??= gzipSync(asset.body, { level: 9 });
  return asset.gzipped;
}
