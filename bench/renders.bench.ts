/**
 * Renders under pressure (issue 9): eight clients keep asking for image variants not rendered yet of
 * eight 12-megapixel photos (each asks for the next one as soon as it is answered, 200 or 503, as an
 * abuser would), while the load generator measures a cached thumbnail and a login. The same two are
 * measured idle first. The server runs in its own process with its defaults (MEDIA_RENDER_CONCURRENCY,
 * MEDIA_RENDER_WAIT_MS 2 s), rate limits off, so only the render queue protects it.
 * Env: DATABASE_URL, BENCH_SECONDS (10), BENCH_CONNECTIONS (32; logins use at most 4: argon2 is meant
 * to be slow, and 32 at once would measure its queue, not the renders' effect).
 */
import sharp from 'sharp';
import { hashPassword } from '../src/areas/accounts/secrets.ts';
import { hashToken } from '../src/platform/secrets/opaque-tokens.ts';
import { type LoadResult, loadSettings, measureLoad } from './harness/load.ts';
import { noisyPhoto } from './harness/photos.ts';
import { machineLine } from './harness/report.ts';
import { createScratchDatabase } from './harness/scratch-database.ts';
import { startServer } from './harness/server.ts';

const settings = loadSettings();
const loginSettings = { ...settings, connections: Math.min(settings.connections, 4) };
const token = 'tms_bench-renders-token';
const password = 'bench password 42';
console.log(machineLine(process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite', settings));

const passwordHash = await hashPassword(password);
const scratch = await createScratchDatabase(async (conn) => {
  await conn.exec(`
    INSERT INTO users (id, email, username, sponsor_code, email_confirmed_at, created_at, updated_at)
    VALUES (md5('bench-renders')::uuid, 'renders@example.test', 'renders', 'BRENDER1', now(), now(), now());
    INSERT INTO sessions (id, user_id, token_hash, created_at, last_seen_at, expires_at)
    VALUES (gen_random_uuid(), md5('bench-renders')::uuid, '${hashToken(token)}', now(), now(), now() + interval '1 day');
    INSERT INTO users (id, email, username, sponsor_code, password_hash, email_confirmed_at, created_at, updated_at)
    VALUES (md5('bench-login')::uuid, 'login@example.test', 'loginbench', 'BLOGIN01', '${passwordHash}', now(), now(), now());`);
});
const server = await startServer(scratch.serverEnv);
try {
  const uploadImage = async (image: Buffer): Promise<string> => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'photo.jpg');
    const response = await fetch(`${server.url}/api/users/me/media`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    });
    if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: { attributes: { hex: string } } }).data.attributes.hex;
  };
  /** GETs until 200: the media-variants job or the queue renders it meanwhile. */
  const untilReady = async (url: string) => {
    for (;;) {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === 200) return;
      if (response.status !== 503) throw new Error(`${url}: ${response.status}`);
    }
  };

  const small = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#4477aa' } })
    .jpeg()
    .toBuffer();
  const thumbHex = await uploadImage(small);
  const thumbUrl = `${server.url}/media/${thumbHex}.webp?size=thumb`;
  await untilReady(thumbUrl);

  const photos: string[] = [];
  for (let index = 0; index < 8; index += 1) {
    const photo = await noisyPhoto();
    photos.push(await uploadImage(photo));
  }
  // The job renders the common variants of the uploads: wait for them, so "idle" is idle.
  for (const hex of photos) await untilReady(`${server.url}/media/${hex}.jpg?size=large`);

  const login = () =>
    measureLoad(`${server.url}/api/auth/login`, loginSettings, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'login@example.test', password }),
    } as { method: string; headers: Record<string, string> });
  const idleThumb = await measureLoad(thumbUrl, settings);
  const idleLogin = await login();

  // Eight abusers, each walking the variants nobody rendered of its own photo.
  const uncached = ['avif', 'png', 'jpg', 'webp'].flatMap((ext) =>
    ['original', 'large', 'small', 'thumb']
      .map((size) => `${ext}?size=${size}`)
      .filter(
        (variant) => !['webp?size=thumb', 'webp?size=small', 'webp?size=large', 'jpg?size=large'].includes(variant),
      ),
  );
  const answers = { 200: 0, 503: 0, other: 0 };
  let pressing = true;
  const abusers = photos.map(async (hex, index) => {
    for (let step = index; pressing; step += 1) {
      const response = await fetch(`${server.url}/media/${hex}.${uncached[step % uncached.length]}`);
      await response.arrayBuffer();
      if (response.status === 200) answers[200] += 1;
      else if (response.status === 503) answers[503] += 1;
      else answers.other += 1;
    }
  });
  const busyThumb = await measureLoad(thumbUrl, settings);
  const busyLogin = await login();
  pressing = false;
  await Promise.all(abusers);

  const row = (scenario: string, result: LoadResult) =>
    `| ${scenario} | ${Math.round(result.rps)} | ${result.p50} | ${result.p99} | ${result.bad} |`;
  console.log(
    [
      '',
      '| scenario | req/s | p50 (ms) | p99 (ms) | bad answers |',
      '|---|---:|---:|---:|---:|',
      row('cached thumbnail, idle', idleThumb),
      row('cached thumbnail, 8 clients asking for renders', busyThumb),
      row(`login (${loginSettings.connections} connections), idle`, idleLogin),
      row(`login (${loginSettings.connections} connections), 8 clients asking for renders`, busyLogin),
      '',
      `render requests meanwhile: ${answers[200]} answered 200, ${answers[503]} 503 variantNotReady, ${answers.other} other`,
    ].join('\n'),
  );
} finally {
  await server.stop();
  await scratch.drop();
}
