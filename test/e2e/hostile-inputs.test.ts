/** Inputs that once answered 500: object lookups reaching the prototype, cursor parts out of a column's range. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { encodeCursor } from '../../src/platform/db/keyset-cursor.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/factories.ts';
import { createMediaRow } from '../helpers/media-factory.ts';

describe('hostile inputs', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('answers 404 to a media file whose extension names an Object property', async () => {
    const owner = await createUser(t);
    const row = await createMediaRow(t, owner.id);
    const hex = row.id.replaceAll('-', '');
    for (const ext of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const res = await t.request({ method: 'GET', url: `/media/${hex}.${ext}` });
      assert.equal(res.statusCode, 404, ext);
    }
  });

  it('answers 400 to a cursor whose integer part a PostgreSQL integer cannot hold', async () => {
    const first = await t.request({ method: 'GET', url: '/api/badges?limit=1' });
    assert.equal(first.statusCode, 200);
    const next = new URL(first.json.links.next, 'http://x').searchParams.get('cursor')!;
    const parts = JSON.parse(Buffer.from(next, 'base64url').toString('utf8')) as unknown[];
    for (const huge of [2_147_483_648, -2_147_483_649, 9_007_199_254_740_991]) {
      const cursor = encodeCursor(String(parts[0]), [huge, ...parts.slice(2)] as (string | number)[]);
      const res = await t.request({ method: 'GET', url: `/api/badges?cursor=${cursor}` });
      assert.equal(res.statusCode, 400, String(huge));
      assert.equal(res.json.errors[0].code, 'invalidCursor');
    }
  });
});
