/** keysetBatches reads a section batch after batch from the last key, and only as its rows are consumed. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExportRegistry } from './export-registry.ts';
import { keysetBatches } from './keyset-batches.ts';

const rows = Array.from({ length: 7 }, (_, index) => ({ id: `row-${index}` }));

describe('keysetBatches', () => {
  it('reads every row once, in batches after the last key, the next batch only when needed', async () => {
    const reads: (string | null)[] = [];
    const read = async (after: string | null, limit: number) => {
      reads.push(after);
      return rows.filter((row) => after === null || row.id > after).slice(0, limit);
    };
    const iterator = keysetBatches(read, (row) => row.id, 3)[Symbol.asyncIterator]();
    assert.equal((await iterator.next()).value?.id, 'row-0');
    assert.deepEqual(reads, [null], 'one batch read for the first row');
    const seen = ['row-0'];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) seen.push(next.value.id);
    assert.deepEqual(
      seen,
      rows.map((row) => row.id),
    );
    assert.deepEqual(reads, [null, 'row-2', 'row-5']);
  });

  it('stops after a full last batch with one more read that finds nothing', async () => {
    const reads: (string | null)[] = [];
    const six = rows.slice(0, 6);
    const read = async (after: string | null, limit: number) => {
      reads.push(after);
      return six.filter((row) => after === null || row.id > after).slice(0, limit);
    };
    const seen: string[] = [];
    for await (const row of keysetBatches(read, (row) => row.id, 3)) seen.push(row.id);
    assert.equal(seen.length, 6);
    assert.deepEqual(reads, [null, 'row-2', 'row-5']);
  });
});

describe('ExportRegistry', () => {
  const section = (name: string) => ({ name, description: 'd', rows: async function* () {} });

  it('keeps sections in registration order and refuses a name twice, a reserved or a non-kebab-case one', () => {
    const registry = new ExportRegistry();
    registry.register(section('profile'));
    registry.register(section('bookmark-collections'));
    assert.deepEqual(
      registry.sections().map((entry) => entry.name),
      ['profile', 'bookmark-collections'],
    );
    assert.throws(() => registry.register(section('profile')), /twice/);
    assert.throws(() => registry.register(section('manifest')), /reserved/);
    for (const bad of ['Profile', 'two words', 'media/', '../x', '-lead', '']) {
      assert.throws(() => registry.register(section(bad)), /kebab-case/, bad);
    }
  });
});
