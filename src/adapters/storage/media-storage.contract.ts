/**
 * The behaviour every MediaStorage must show, as one suite run against each implementation
 * (local-storage.test.ts, s3-storage.test.ts). Not a test file itself: it only defines the suite.
 */
import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { RangeNotSatisfiableError } from './byte-range.ts';
import type { ListedObject, MediaStorage } from './media-storage.ts';
import { InvalidStorageKeyError } from './storage-key.ts';

export interface StorageUnderTest {
  storage: MediaStorage;
  cleanup(): Promise<void>;
}

/** Every byte value, so encodings that mangle binary data are caught. */
const binary = Buffer.from(Array.from({ length: 512 }, (_, index) => index % 256));

export async function readStream(stream: Readable): Promise<Buffer> {
  return Buffer.concat((await stream.toArray()) as Buffer[]);
}

async function collect(listing: AsyncIterable<ListedObject>): Promise<ListedObject[]> {
  const found: ListedObject[] = [];
  for await (const object of listing) found.push(object);
  return found;
}

export function describeMediaStorageContract(name: string, open: () => Promise<StorageUnderTest>): void {
  describe(`${name} honours the MediaStorage contract`, () => {
    let subject: StorageUnderTest;
    let storage: MediaStorage;
    beforeEach(async () => {
      subject = await open();
      storage = subject.storage;
    });
    afterEach(async () => {
      await subject.cleanup();
    });

    it('returns exactly the bytes that were put', async () => {
      await storage.put('originals/ab/cd/0123abcd.jpg', binary, 'image/jpeg');
      assert.deepEqual(await storage.get('originals/ab/cd/0123abcd.jpg'), binary);
      assert.equal(await storage.exists('originals/ab/cd/0123abcd.jpg'), true);
      const whole = await storage.getStream('originals/ab/cd/0123abcd.jpg');
      assert.ok(whole);
      assert.equal(whole.size, binary.length);
      assert.equal(whole.range, undefined);
      assert.deepEqual(await readStream(whole.stream), binary);
    });

    it('stores an empty object', async () => {
      await storage.put('variants/empty/thumb.webp', Buffer.alloc(0), 'image/webp');
      assert.deepEqual(await storage.get('variants/empty/thumb.webp'), Buffer.alloc(0));
      assert.equal((await storage.stat('variants/empty/thumb.webp'))?.size, 0);
    });

    it('replaces an object when the same key is put again', async () => {
      await storage.put('variants/aa/large.webp', Buffer.from('the first, longer version'), 'image/webp');
      await storage.put('variants/aa/large.webp', Buffer.from('second'), 'image/webp');
      assert.equal((await storage.get('variants/aa/large.webp'))?.toString(), 'second');
      assert.equal((await storage.stat('variants/aa/large.webp'))?.size, 6);
    });

    it('streams a byte range and reports the whole size', async () => {
      await storage.put('originals/range.bin', binary, 'application/octet-stream');
      const part = await storage.getStream('originals/range.bin', { start: 10, end: 19 });
      assert.ok(part);
      assert.equal(part.size, binary.length);
      assert.deepEqual(part.range, { start: 10, end: 19 });
      assert.deepEqual(await readStream(part.stream), binary.subarray(10, 20));

      const single = await storage.getStream('originals/range.bin', { start: 0, end: 0 });
      assert.ok(single);
      assert.deepEqual(await readStream(single.stream), binary.subarray(0, 1));
    });

    it('clamps a range that runs past the end', async () => {
      await storage.put('originals/range.bin', binary, 'application/octet-stream');
      const tail = await storage.getStream('originals/range.bin', { start: 500, end: 10_000 });
      assert.ok(tail);
      assert.deepEqual(tail.range, { start: 500, end: 511 });
      assert.deepEqual(await readStream(tail.stream), binary.subarray(500));
    });

    it('refuses a range that starts past the end, naming the size', async () => {
      await storage.put('originals/range.bin', binary, 'application/octet-stream');
      await assert.rejects(storage.getStream('originals/range.bin', { start: 512, end: 600 }), (error: unknown) => {
        assert.ok(error instanceof RangeNotSatisfiableError);
        assert.equal(error.size, 512);
        return true;
      });
      await assert.rejects(storage.getStream('originals/range.bin', { start: 9, end: 3 }), TypeError);
    });

    it('reports size and modification time', async () => {
      const before = Date.now();
      await storage.put('originals/stat.bin', binary, 'application/octet-stream');
      const info = await storage.stat('originals/stat.bin');
      assert.ok(info);
      assert.equal(info.size, binary.length);
      assert.ok(info.modifiedAt instanceof Date);
      // S3 keeps whole seconds, so allow the time to fall just before the put started.
      assert.ok(info.modifiedAt.getTime() >= before - 1000 && info.modifiedAt.getTime() <= Date.now() + 1000);
    });

    it('answers null or false for a key that was never put', async () => {
      assert.equal(await storage.get('originals/missing.jpg'), null);
      assert.equal(await storage.getStream('originals/missing.jpg'), null);
      assert.equal(await storage.getStream('originals/missing.jpg', { start: 0, end: 10 }), null);
      assert.equal(await storage.stat('originals/missing.jpg'), null);
      assert.equal(await storage.exists('originals/missing.jpg'), false);
    });

    it('deletes, and deleting again or deleting nothing is not an error', async () => {
      await storage.put('originals/gone.jpg', binary, 'image/jpeg');
      await storage.delete('originals/gone.jpg');
      assert.equal(await storage.get('originals/gone.jpg'), null);
      assert.equal(await storage.exists('originals/gone.jpg'), false);
      await storage.delete('originals/gone.jpg');
      await storage.delete('never/was/here.jpg');
    });

    it('lists the objects under a prefix in key order, across pages', async () => {
      const wanted = [
        'originals/ab/1.jpg',
        'originals/ab/2.jpg',
        'originals/cd/3.jpg',
        'originals/cd/4.jpg',
        'originals/z.jpg',
      ];
      for (const key of [...wanted].reverse()) await storage.put(key, Buffer.from(key), 'image/jpeg');
      await storage.put('originals-old/5.jpg', Buffer.from('x'), 'image/jpeg');
      await storage.put('variants/ab/small.webp', Buffer.from('x'), 'image/webp');

      const listed = await collect(storage.list('originals/'));
      assert.deepEqual(
        listed.map((object) => object.key),
        wanted,
      );
      for (const object of listed) {
        assert.equal(object.size, Buffer.byteLength(object.key));
        assert.ok(object.modifiedAt instanceof Date);
      }
      assert.deepEqual(
        (await collect(storage.list('originals/c'))).map((object) => object.key),
        ['originals/cd/3.jpg', 'originals/cd/4.jpg'],
      );
      assert.deepEqual(
        (await collect(storage.list('originals'))).map((object) => object.key),
        ['originals-old/5.jpg', ...wanted],
      );
      assert.equal((await collect(storage.list(''))).length, 7);
      assert.deepEqual(await collect(storage.list('nothing/')), []);
    });

    it('refuses keys that could escape the root', async () => {
      const unsafe = [
        '../escape.jpg',
        'originals/../../escape.jpg',
        '/etc/passwd',
        'a\\b.jpg',
        'a//b.jpg',
        'a/',
        '',
        './a.jpg',
        'C:/x.jpg',
      ];
      for (const key of unsafe) {
        await assert.rejects(storage.put(key, binary, 'image/jpeg'), InvalidStorageKeyError, `put ${key}`);
        await assert.rejects(storage.get(key), InvalidStorageKeyError, `get ${key}`);
        await assert.rejects(storage.getStream(key), InvalidStorageKeyError, `getStream ${key}`);
        await assert.rejects(storage.stat(key), InvalidStorageKeyError, `stat ${key}`);
        await assert.rejects(storage.exists(key), InvalidStorageKeyError, `exists ${key}`);
        await assert.rejects(storage.delete(key), InvalidStorageKeyError, `delete ${key}`);
      }
      await assert.rejects(collect(storage.list('../')), InvalidStorageKeyError);
      await assert.rejects(collect(storage.list('/')), InvalidStorageKeyError);
    });
  });
}
