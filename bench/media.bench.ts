/**
 * Media: (1) upload of a 12-megapixel JPEG and the first render of its WebP variants, time and the
 * server's peak resident memory; (2) GET /media/{hex}.webp of a cached variant (the thumb, so
 * per-request work shows, not bandwidth), next to @fastify/static serving the same stored file and to
 * ping. The server runs in its own process (node src/main.ts, local storage under its DATA_DIR), the
 * load generator and the static server in others. Env: DATABASE_URL, MEDIA_BENCH_ROUNDS (3),
 * BENCH_SECONDS (10), BENCH_CONNECTIONS (32).
 */
import { join } from 'node:path';
import { variantKey } from '../src/areas/media/media-storage-keys.ts';
import { hashToken } from '../src/platform/secrets/opaque-tokens.ts';
import { measureStaticFile } from './harness/anchors.ts';
import { loadSettings, measureLoad } from './harness/load.ts';
import { noisyPhoto } from './harness/photos.ts';
import { loadTable, machineLine } from './harness/report.ts';
import { createScratchDatabase } from './harness/scratch-database.ts';
import { rssMbOf, startServer } from './harness/server.ts';
import { settle } from './harness/settle.ts';

const rounds = Number(process.env.MEDIA_BENCH_ROUNDS ?? 3);
const settings = loadSettings();
const token = 'tms_bench-uploader-token';
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(machineLine(process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite', settings));

/** Runs fn while sampling the server's RSS; returns fn's value, its duration and the highest RSS seen. */
async function sampled<T>(pid: number, fn: () => Promise<T>) {
  let peak = rssMbOf(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMbOf(pid));
  }, 5);
  const started = performance.now();
  const value = await fn();
  const ms = performance.now() - started;
  clearInterval(timer);
  return { value, ms, peak: Math.max(peak, rssMbOf(pid)) };
}

const scratch = await createScratchDatabase(async (conn) => {
  await conn.exec(`
    INSERT INTO users (id, email, username, sponsor_code, email_confirmed_at, created_at, updated_at)
    VALUES (md5('bench-uploader')::uuid, 'uploader@example.test', 'uploader', 'BUPLOAD1', now(), now(), now());
    INSERT INTO sessions (id, user_id, token_hash, created_at, last_seen_at, expires_at)
    VALUES (gen_random_uuid(), md5('bench-uploader')::uuid, '${hashToken(token)}', now(), now(), now() + interval '1 day');`);
});
try {
  const photo = await noisyPhoto();
  // The first-render figure waits for the render itself, not for 503 variantNotReady after 2 s.
  const server = await startServer({ ...scratch.serverEnv, MEDIA_RENDER_WAIT_MS: '60000' });
  const idle = server.rssMb();
  console.log(
    `input: 4000x3000 JPEG, ${(photo.length / 1024 / 1024).toFixed(1)} MB; server idle at ${Math.round(idle)} MB`,
  );

  const uploads: number[] = [];
  const renders: number[] = [];
  const peaks: number[] = [];
  let hex = '';
  for (let round = 0; round < rounds; round++) {
    const form = new FormData();
    form.append('file', new Blob([photo], { type: 'image/jpeg' }), 'photo.jpg');
    const up = await sampled(server.pid, () =>
      fetch(`${server.url}/api/users/me/media`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${token}` },
      }),
    );
    if (up.value.status !== 201) throw new Error(`upload failed: ${up.value.status} ${await up.value.text()}`);
    hex = ((await up.value.json()) as { data: { attributes: { hex: string } } }).data.attributes.hex;
    const render = await sampled(server.pid, async () => {
      for (const size of ['thumb', 'small', 'large']) {
        const response = await fetch(`${server.url}/media/${hex}.webp?size=${size}`);
        if (response.status !== 200) throw new Error(`variant ${size}: ${response.status}`);
        await response.arrayBuffer();
      }
    });
    uploads.push(up.ms);
    renders.push(render.ms);
    peaks.push(Math.max(up.peak, render.peak));
  }
  console.log(`\n| step (median of ${rounds}) | time | server's peak RSS above idle |`);
  console.log('|---|---:|---:|');
  console.log(
    `| upload (probe, EXIF, hash, store, row) | ${median(uploads).toFixed(0)} ms | +${Math.round(median(peaks) - idle)} MB (over upload and renders) |`,
  );
  console.log(`| first render of thumb + small + large WebP | ${median(renders).toFixed(0)} ms | |`);

  await settle();
  const ping = await measureLoad(`${server.url}/api/ping`, settings);
  const thumb = await measureLoad(`${server.url}/media/${hex}.webp?size=thumb`, settings);
  await server.stop();
  const staticFile = await measureStaticFile(
    join(scratch.serverEnv.DATA_DIR!, 'media'),
    variantKey(hex, 'thumb', 'webp'),
    settings,
  );
  console.log(
    `\n${loadTable(
      [
        { scenario: 'GET /api/ping (anchor)', result: ping },
        { scenario: 'GET /media/{hex}.webp?size=thumb (this service)', result: thumb },
        { scenario: '@fastify/static, same file (anchor)', result: staticFile },
      ],
      ping,
    )}`,
  );
} finally {
  await scratch.drop();
}
