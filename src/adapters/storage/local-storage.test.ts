import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LocalStorage } from './local-storage.ts';
import { describeMediaStorageContract } from './media-storage.contract.ts';

async function temporaryRoot(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'local-storage-'));
}

describeMediaStorageContract('LocalStorage', async () => {
  const root = await temporaryRoot();
  return { storage: new LocalStorage(join(root, 'media')), cleanup: () => rm(root, { recursive: true, force: true }) };
});

describe('LocalStorage on disk', () => {
  let root: string;
  let storage: LocalStorage;
  before(async () => {
    root = await temporaryRoot();
    storage = new LocalStorage(root);
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('keeps an object at root/<key>, creating directories, and leaves no temporary file', async () => {
    await storage.put('originals/ab/cd/abcdef.jpg', Buffer.from('jpeg bytes'), 'image/jpeg');
    assert.equal(await readFile(join(root, 'originals/ab/cd/abcdef.jpg'), 'utf8'), 'jpeg bytes');
    assert.deepEqual(await readdir(join(root, 'originals/ab/cd')), ['abcdef.jpg']);
  });

  it('never lets a reader see a half-written object', async () => {
    const size = 4 * 1024 * 1024;
    const versions = [Buffer.alloc(size, 'a'), Buffer.alloc(size, 'b')];
    await storage.put('originals/race.bin', versions[0]!, 'application/octet-stream');
    let writing = true;
    const writer = (async () => {
      for (let round = 1; round <= 12; round++) {
        await storage.put('originals/race.bin', versions[round % 2]!, 'application/octet-stream');
      }
      writing = false;
    })();
    let reads = 0;
    const readers = Array.from({ length: 4 }, async () => {
      while (writing) {
        const seen = await storage.get('originals/race.bin');
        assert.ok(seen);
        assert.equal(seen.length, size, 'a reader saw a partial object');
        assert.ok(seen.equals(versions[0]!) || seen.equals(versions[1]!), 'a reader saw mixed contents');
        reads++;
      }
    });
    await Promise.all([writer, ...readers]);
    assert.ok(reads > 0);
  });

  it('removes its temporary file and keeps nothing when the write cannot complete', async () => {
    await mkdir(join(root, 'blocked/dir.jpg'), { recursive: true });
    await assert.rejects(storage.put('blocked/dir.jpg', Buffer.from('x'), 'image/jpeg'));
    assert.deepEqual(await readdir(join(root, 'blocked')), ['dir.jpg']);
    assert.equal(await storage.get('blocked/dir.jpg'), null, 'a directory is not an object');
  });

  it('lists only files whose names are valid keys, without following symbolic links', async () => {
    const outside = await temporaryRoot();
    await writeFile(join(outside, 'secret.jpg'), 'outside the root');
    await mkdir(join(root, 'listing'), { recursive: true });
    await writeFile(join(root, 'listing/.kept.jpg.0011aabb.tmp'), 'half written');
    await writeFile(join(root, 'listing/with space.jpg'), 'not a key');
    await symlink(outside, join(root, 'listing/link'));
    await storage.put('listing/real.jpg', Buffer.from('real'), 'image/jpeg');

    const keys: string[] = [];
    for await (const object of storage.list('listing/')) keys.push(object.key);
    assert.deepEqual(keys, ['listing/real.jpg']);
    await rm(outside, { recursive: true, force: true });
  });

  it('lists nothing when the root does not exist yet', async () => {
    const fresh = new LocalStorage(join(root, 'not-created'));
    const keys: string[] = [];
    for await (const object of fresh.list('')) keys.push(object.key);
    assert.deepEqual(keys, []);
  });
});
