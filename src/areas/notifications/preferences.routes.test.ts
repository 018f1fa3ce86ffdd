/** GET and PATCH /api/users/me/notifications/preferences: defaults, partial patches, every bad shape. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';

const url = '/api/users/me/notifications/preferences';
const allTrue = {
  'follow.received': { inApp: true, push: true },
  'badge.earned': { inApp: true, push: true },
  'user.level.up': { inApp: true, push: true },
  'user.title.up': { inApp: true, push: true },
};

describe('notification preferences', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const matrixOf = async (user: TestUser) =>
    (await t.request({ method: 'GET', url, token: user.token })).json.data.attributes.matrix;
  const patch = (user: TestUser, body: unknown) => t.request({ method: 'PATCH', url, token: user.token, body });

  it('defaults every cell to true, as a notificationPreferences resource whose id is the user', async () => {
    const user = await createUser(t);
    const res = await t.request({ method: 'GET', url, token: user.token });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json.data, { type: 'notificationPreferences', id: user.id, attributes: { matrix: allTrue } });
  });

  it('patches some cells (flat body), leaves absent cells untouched and answers the full matrix', async () => {
    const user = await createUser(t);
    const first = await patch(user, { 'follow.received': { push: false } });
    assert.equal(first.statusCode, 200);
    assert.deepEqual(first.json.data.attributes.matrix, {
      ...allTrue,
      'follow.received': { inApp: true, push: false },
    });
    const second = await patch(user, { 'follow.received': { inApp: false }, 'badge.earned': { push: false } });
    const expected = {
      ...allTrue,
      'follow.received': { inApp: false, push: false },
      'badge.earned': { inApp: true, push: false },
    };
    assert.deepEqual(second.json.data.attributes.matrix, expected);
    assert.deepEqual(await matrixOf(user), expected);
    const back = await patch(user, { 'follow.received': { inApp: true, push: true } });
    assert.deepEqual(back.json.data.attributes.matrix, { ...allTrue, 'badge.earned': { inApp: true, push: false } });
    assert.equal((await patch(user, {})).statusCode, 200);
  });

  it('takes the same patch under data.attributes', async () => {
    const user = await createUser(t);
    const res = await patch(user, {
      data: { type: 'notificationPreferences', id: user.id, attributes: { 'user.title.up': { push: false } } },
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json.data.attributes.matrix, { ...allTrue, 'user.title.up': { inApp: true, push: false } });
  });

  it("never touches another user's preferences", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    await patch(user, { 'badge.earned': { inApp: false } });
    assert.deepEqual(await matrixOf(other), allTrue);
  });

  it('answers 400 for a body that is not JSON or not an object, and writes nothing', async () => {
    const user = await createUser(t);
    for (const payload of [
      '[]',
      '"push"',
      '42',
      'null',
      'true',
      '[{"follow.received":{"push":false}}]',
      '{not json',
      '',
    ]) {
      const res = await t.request({
        method: 'PATCH',
        url,
        token: user.token,
        payload,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.statusCode, 400, `body ${payload}`);
      assert.equal(res.json.errors[0].status, '400');
    }
    assert.deepEqual(await matrixOf(user), allTrue);
  });

  it('rejects the whole patch with 422 and one error per bad cell (meta.code and source.pointer)', async () => {
    const user = await createUser(t);
    const res = await patch(user, {
      'follow.received': { push: false, email: true, inApp: 'no' },
      'comment.created': { push: false },
      'badge.earned': true,
      'user.level.up': { inApp: 0 },
      'a/b': {},
    });
    assert.equal(res.statusCode, 422);
    const errors = res.json.errors.map((error: any) => ({
      status: error.status,
      code: error.meta.code,
      pointer: error.source.pointer,
    }));
    assert.deepEqual(errors, [
      { status: '422', code: 'unknownChannel', pointer: '/follow.received/email' },
      { status: '422', code: 'expectedBool', pointer: '/follow.received/inApp' },
      { status: '422', code: 'unknownType', pointer: '/comment.created' },
      { status: '422', code: 'expectedObject', pointer: '/badge.earned' },
      { status: '422', code: 'expectedBool', pointer: '/user.level.up/inApp' },
      { status: '422', code: 'unknownType', pointer: '/a~1b' },
    ]);
    assert.deepEqual(await matrixOf(user), allTrue, 'the valid cell of the rejected patch was not written');
  });

  it('points into data.attributes when the patch came there', async () => {
    const user = await createUser(t);
    const res = await patch(user, { data: { attributes: { 'follow.received': { push: 'off' }, 'badge.earned': [] } } });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(
      res.json.errors.map((error: any) => [error.meta.code, error.source.pointer]),
      [
        ['expectedBool', '/data/attributes/follow.received/push'],
        ['expectedObject', '/data/attributes/badge.earned'],
      ],
    );
  });
});
