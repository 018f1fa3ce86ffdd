/**
 * Media benchmark: (1) upload of a 12-megapixel JPEG plus the first render of its WebP variants,
 * time and peak memory; (2) GET /media/{hex}.webp of a cached variant, requests a second, next to
 * @fastify/static serving the same file from the same disk (the thumb, so per-request work shows, not bandwidth).
 */
import { dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import sharp from 'sharp';
import { variantKey } from '../src/areas/media/media-storage-keys.ts';
import { createTestApp } from '../test/helpers/app.ts';
import { createUser } from '../test/helpers/factories.ts';
import { upload } from '../test/helpers/media-uploads.ts';

const rounds = Number(process.env.MEDIA_BENCH_ROUNDS ?? 3);
const seconds = Number(process.env.MEDIA_BENCH_SECONDS ?? 8);
const connections = 32;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Samples RSS while fn runs; returns fn's duration and the highest RSS seen. */
async function measure<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; peakRss: number }> {
  let peakRss = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 5);
  const started = performance.now();
  const value = await fn();
  const ms = performance.now() - started;
  clearInterval(timer);
  return { value, ms, peakRss: Math.max(peakRss, process.memoryUsage.rss()) };
}

const mediaDir = `/tmp/media-bench-${process.pid}`;
const { LocalStorage } = await import('../src/adapters/storage/index.ts');
const t = await createTestApp({ deps: { storage: new LocalStorage(mediaDir) } });
const user = await createUser(t);
// Noise compresses like a detailed photo (a few MB), unlike a smooth gradient.
const photo = await sharp({
  create: {
    width: 4000,
    height: 3000,
    channels: 3,
    background: '#808080',
    noise: { type: 'gaussian', mean: 128, sigma: 40 },
  },
})
  .jpeg({ quality: 85 })
  .toBuffer();
const baseline = process.memoryUsage.rss();
const engine = t.deps.database.engine;
console.log(
  `input: 4000x3000 JPEG, ${(photo.length / 1024 / 1024).toFixed(1)} MB; database ${engine}; RSS before ${mb(baseline)} MB`,
);

const uploads: number[] = [];
const variants: number[] = [];
const peaks: number[] = [];
let hex = '';
for (let round = 0; round < rounds; round++) {
  const up = await measure(() => upload(t, '/api/users/me/media', user.token, photo));
  if (up.value.statusCode !== 201) throw new Error(`upload failed: ${up.value.body}`);
  hex = up.value.json.data.attributes.hex;
  const render = await measure(async () => {
    for (const size of ['thumb', 'small', 'large']) {
      const res = await t.request({ method: 'GET', url: `/media/${hex}.webp?size=${size}` });
      if (res.statusCode !== 200) throw new Error(`variant ${size}: ${res.statusCode}`);
    }
  });
  uploads.push(up.ms);
  variants.push(render.ms);
  peaks.push(Math.max(up.peakRss, render.peakRss));
}
console.log(`\n| step (median of ${rounds}) | time | peak RSS above the idle app |`);
console.log('|---|---|---|');
console.log(
  `| upload (probe, EXIF, hash, store, row) | ${median(uploads).toFixed(0)} ms | +${mb(median(peaks) - baseline)} MB (peak over upload and renders) |`,
);
console.log(`| first render of thumb + small + large WebP | ${median(variants).toFixed(0)} ms | |`);

// Serving a cached variant, through the app and through @fastify/static.
await t.app.listen({ host: '127.0.0.1', port: 0 });
const appUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}/media/${hex}.webp?size=thumb`;
const key = variantKey(hex, 'thumb', 'webp');
const statics = Fastify({ logger: false });
await statics.register(fastifyStatic, {
  root: join(mediaDir, dirname(key)),
  prefix: '/static/',
  maxAge: '365d',
  immutable: true,
});
await statics.listen({ host: '127.0.0.1', port: 0 });
const staticUrl = `http://127.0.0.1:${(statics.server.address() as { port: number }).port}/static/thumb.webp`;

async function load(url: string) {
  const result = await autocannon({ url, connections, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result;
}
const viaApp = await load(appUrl);
const viaStatic = await load(staticUrl);
console.log(
  `\n| GET cached thumb WebP (${connections} connections, ${seconds} s) | req/s (mean) | latency p50 | latency p99 |`,
);
console.log('|---|---|---|---|');
console.log(
  `| GET /media/{hex}.webp?size=thumb (this service) | ${viaApp.requests.average.toFixed(0)} | ${viaApp.latency.p50} ms | ${viaApp.latency.p99} ms |`,
);
console.log(
  `| @fastify/static, same file | ${viaStatic.requests.average.toFixed(0)} | ${viaStatic.latency.p50} ms | ${viaStatic.latency.p99} ms |`,
);

await statics.close();
await t.close();
const { rmSync } = await import('node:fs');
rmSync(mediaDir, { recursive: true, force: true });
