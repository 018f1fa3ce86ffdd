/** For the media tests: multipart bodies, uploads through the API, a look into storage. */
import { randomBytes } from 'node:crypto';
import type { MediaStorage } from '../../src/adapters/storage/index.ts';
import { makeJpeg } from '../support/test-images.ts';
import type { TestApp, TestResponse } from './app.ts';

export interface FormPart {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

export function multipartForm(parts: FormPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----media-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      part.filename === undefined
        ? `form-data; name="${part.name}"`
        : `form-data; name="${part.name}"; filename="${part.filename}"`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.contentType ? `Content-Type: ${part.contentType}\r\n` : ''}\r\n`;
    chunks.push(
      Buffer.from(head),
      Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Uploads bytes as the `file` part (named like a photo whatever they hold) plus text fields. */
export function upload(
  t: TestApp,
  url: string,
  token: string | undefined,
  file: Buffer | null,
  fields: Record<string, string> = {},
): Promise<TestResponse> {
  const parts: FormPart[] = Object.entries(fields).map(([name, value]) => ({ name, value }));
  if (file !== null) parts.push({ name: 'file', value: file, filename: 'photo.jpg', contentType: 'image/jpeg' });
  const form = multipartForm(parts);
  return t.request({ method: 'POST', url, ...(token ? { token } : {}), payload: form.payload, headers: form.headers });
}

/**
 * A post of several photos made the author's way: each photo uploaded (a JPEG of its size), then
 * POST /api/users/me/posts with each one's text, in order. Its hex.
 */
export async function uploadPost(
  t: TestApp,
  token: string,
  photos: Array<{ width: number; height: number; description: string }>,
  caption: string,
): Promise<string> {
  const ids: string[] = [];
  for (const { width, height } of photos) {
    const uploaded = await upload(t, '/api/users/me/media', token, await makeJpeg({ width, height }));
    if (uploaded.statusCode !== 201) throw new Error(`upload: ${uploaded.statusCode} ${uploaded.body}`);
    ids.push(uploaded.json.data.id);
  }
  const made = await t.request({
    method: 'POST',
    url: '/api/users/me/posts',
    token,
    body: { caption, photos: ids.map((mediaId, index) => ({ mediaId, description: photos[index]?.description })) },
  });
  if (made.statusCode !== 201) throw new Error(`post: ${made.statusCode} ${made.body}`);
  return made.json.data.attributes.hex;
}

export async function storedKeys(storage: MediaStorage): Promise<string[]> {
  const keys: string[] = [];
  for (const prefix of ['originals/', 'variants/'])
    for await (const object of storage.list(prefix)) keys.push(object.key);
  return keys;
}
