import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MissingRow, returned } from './returned.ts';

describe('returned', () => {
  it('gives the row, and throws MissingRow naming the statement when there is none', () => {
    const row = { id: 1 };
    assert.equal(returned(row, 'probe.insert'), row);
    for (const none of [undefined, null]) {
      assert.throws(
        () => returned(none, 'probe.insert'),
        (error: unknown) => error instanceof MissingRow && error.message === 'probe.insert returned no row',
      );
    }
  });
});
