/**
 * The archive writer alone: rows as JSON (times in RFC 3339 UTC, 64-bit amounts as strings), files
 * added in turn with their sizes and digests in the manifest, a file storage lost listed as missing.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import yauzl from 'yauzl';
import { exportArchive } from './export-archive.ts';

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function entriesOf(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, async (openError, stream) => {
          if (openError) return reject(openError);
          entries.set(entry.fileName, await collect(stream as Readable));
          zip.readEntry();
        }),
      );
      zip.readEntry();
    });
  });
}

describe('export archive', () => {
  it('writes rows, files, a README and the manifest', async () => {
    const photo = Buffer.from('not really a jpeg, but bytes to keep as they are');
    const { stream, done } = exportArchive({
      userId: 'user-1',
      generatedAt: new Date('2026-11-21T12:00:00.000Z'),
      readme: 'Read me',
      signal: new AbortController().signal,
      sections: [
        {
          name: 'earnings',
          description: 'Money.',
          async *rows() {
            yield { id: 'e1', commission: 12_345_678_901_234_567n, occurredAt: new Date('2026-01-02T03:04:05.006Z') };
            yield { id: 'e2', commission: 1n, occurredAt: null, data: { nested: [1, 'two'] } };
          },
        },
        { name: 'empty', description: 'Nothing.', async *rows() {} },
        {
          name: 'media',
          description: 'Photos.',
          async *rows() {
            yield { id: 'm1', file: 'media/m1.jpg' };
          },
          async *files() {
            yield { path: 'media/m1.jpg', open: async () => Readable.from([photo]) };
            yield {
              path: 'media/m2.jpg',
              open: async () => {
                throw new Error('lost');
              },
            };
          },
        },
      ],
    });
    const [archive, summaries] = await Promise.all([collect(stream), done]);
    const entries = await entriesOf(archive);
    assert.deepEqual(
      [...entries.keys()],
      ['README.txt', 'earnings.json', 'empty.json', 'media.json', 'media/m1.jpg', 'manifest.json'],
    );
    assert.deepEqual(JSON.parse(entries.get('earnings.json')!.toString()), [
      { id: 'e1', commission: '12345678901234567', occurredAt: '2026-01-02T03:04:05.006+00:00' },
      { id: 'e2', commission: '1', occurredAt: null, data: { nested: [1, 'two'] } },
    ]);
    assert.deepEqual(JSON.parse(entries.get('empty.json')!.toString()), []);
    assert.ok(entries.get('media/m1.jpg')!.equals(photo));
    const manifest = JSON.parse(entries.get('manifest.json')!.toString());
    assert.deepEqual(manifest.sections, summaries);
    assert.deepEqual(
      manifest.sections.map((section: { name: string; rows: number; files: number }) => [
        section.name,
        section.rows,
        section.files,
      ]),
      [
        ['earnings', 2, 0],
        ['empty', 0, 0],
        ['media', 1, 2],
      ],
    );
    assert.deepEqual(manifest.files.at(-1), { path: 'media/m2.jpg', missing: true });
    const m1 = manifest.files.find((file: { path: string }) => file.path === 'media/m1.jpg');
    assert.deepEqual(m1, {
      path: 'media/m1.jpg',
      size: photo.length,
      sha256: createHash('sha256').update(photo).digest('hex'),
    });
    assert.equal(manifest.generatedAt, '2026-11-21T12:00:00.000+00:00');
    assert.equal(entries.get('README.txt')!.toString(), 'Read me');
  });
});
