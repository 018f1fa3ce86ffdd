/**
 * Data export: GET /api/users/me/export of a user with 10,000 media (and their originals, 4 KiB
 * each) and of one with 100, recording the time, the archive's size and the server's peak resident
 * memory above idle while it streams. The server runs in its own process (node src/main.ts, local
 * storage under its DATA_DIR); this process reads the archive as fast as it arrives and checks its
 * end (the ZIP's end-of-central-directory record). Env: DATABASE_URL, EXPORT_BENCH_SIZES (100,10000: media per user).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { hashToken } from '../src/platform/secrets/opaque-tokens.ts';
import { createScratchDatabase } from './harness/scratch-database.ts';
import { rssMbOf, startServer } from './harness/server.ts';

/** The users' media counts, exported smallest first (RSS never shrinks: each run is read against the one before). */
const sizes = (process.env.EXPORT_BENCH_SIZES ?? '100,10000')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const users = sizes.map((media) => ({ name: `m${media}`, media }));
const fileBytes = 4096;
const tokenOf = (name: string) => `tms_bench-export-${name}`;
const mediaHex = (name: string, n: number) => createHash('md5').update(`bench-export-${name}-${n}`).digest('hex');

const [one] = loadavg();
console.log(
  `${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim()}, ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; ` +
    `load average ${one!.toFixed(2)} (1 min) at the start`,
);

const scratch = await createScratchDatabase(async (conn) => {
  for (const { name, media } of users) {
    await conn.exec(`
      INSERT INTO users (id, email, username, sponsor_code, email_confirmed_at, settings, created_at, updated_at)
      VALUES (md5('bench-export-${name}')::uuid, '${name}@example.test', 'exporter_${name}', 'BEXP${name.toUpperCase()}', now(), '{}', now(), now());
      INSERT INTO sessions (id, user_id, token_hash, created_at, last_seen_at, expires_at)
      VALUES (gen_random_uuid(), md5('bench-export-${name}')::uuid, '${hashToken(tokenOf(name))}', now(), now(), now() + interval '1 day');
      INSERT INTO media (id, owner_id, kind, describe_status, description, original_key, original_format, byte_size,
                         width, height, content_hash, created_at, updated_at, variants_rendered_at)
      SELECT md5('bench-export-${name}-' || n)::uuid, md5('bench-export-${name}')::uuid, 'post', 'skipped',
             'A photo of the bench #' || n, 'originals/' || substr(md5('bench-export-${name}-' || n), 1, 2) || '/' ||
             md5('bench-export-${name}-' || n) || '.jpg', 'jpeg', ${fileBytes}, 64, 48, md5('x' || n),
             now() - n * interval '1 minute', now(), now()
      FROM generate_series(1, ${media}) AS n;`);
  }
});
// The originals, where LocalStorage keeps them (DATA_DIR/media): small files of random bytes.
const storageRoot = join(scratch.serverEnv.DATA_DIR!, 'media');
for (const { name, media } of users) {
  for (let n = 1; n <= media; n++) {
    const hex = mediaHex(name, n);
    mkdirSync(join(storageRoot, 'originals', hex.slice(0, 2)), { recursive: true });
    writeFileSync(join(storageRoot, 'originals', hex.slice(0, 2), `${hex}.jpg`), randomBytes(fileBytes));
  }
}

try {
  const server = await startServer(scratch.serverEnv);
  // A first small export warms the code paths (module loading, prepared statements) before measuring.
  const warm = await fetch(`${server.url}/api/users/me/export`, {
    headers: { authorization: `Bearer ${tokenOf('small')}` },
  });
  await warm.arrayBuffer();
  const idle = server.rssMb();
  console.log(`server idle at ${Math.round(idle)} MB after a first export\n`);
  console.log('| media (+ originals) | archive | time | server RSS before | peak during | peak above idle |');
  console.log('|---:|---:|---:|---:|---:|---:|');
  for (const { name, media } of users) {
    const before = rssMbOf(server.pid);
    let peak = before;
    const timer = setInterval(() => {
      peak = Math.max(peak, rssMbOf(server.pid));
    }, 5);
    const started = performance.now();
    const response = await fetch(`${server.url}/api/users/me/export`, {
      headers: { authorization: `Bearer ${tokenOf(name)}` },
    });
    if (response.status !== 200) throw new Error(`export ${name}: ${response.status} ${await response.text()}`);
    let bytes = 0;
    let tail = Buffer.alloc(0);
    for await (const chunk of response.body!) {
      bytes += chunk.length;
      tail = Buffer.concat([tail, Buffer.from(chunk)]).subarray(-64 * 1024);
    }
    const ms = performance.now() - started;
    clearInterval(timer);
    peak = Math.max(peak, rssMbOf(server.pid));
    // The archive is whole: it ends with an end-of-central-directory record (ZIP64 or not).
    if (tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06])) < 0)
      throw new Error(`export ${name}: no ZIP end record`);
    console.log(
      `| ${media} | ${(bytes / 2 ** 20).toFixed(1)} MiB | ${(ms / 1000).toFixed(1)} s | ${Math.round(before)} MB | ${Math.round(peak)} MB | +${Math.round(peak - idle)} MB |`,
    );
  }
  await server.stop();
} finally {
  await scratch.drop();
}
