/** Which failures are the database's own (503 databaseUnavailable) and which are not. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { databaseError, isDatabaseUnavailable, markConnectFailure } from './errors.ts';

const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });
const sqlState = (code: string) => Object.assign(new Error('terminating connection'), { code });

describe('isDatabaseUnavailable', () => {
  it('knows the server ending or refusing sessions, and the driver losing its connection', () => {
    for (const code of ['57P01', '57P03', '08006', '08001', '53300']) {
      assert.ok(isDatabaseUnavailable(new DrizzleQueryError('select 1', [], sqlState(code))), code);
    }
    assert.ok(isDatabaseUnavailable(new Error('Connection terminated unexpectedly')));
    assert.ok(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect')));
  });

  it('counts a socket error only on the database path: a statement, or the pool connecting', () => {
    assert.ok(isDatabaseUnavailable(new DrizzleQueryError('select 1', [], socketError('ECONNRESET'))));
    const refused = socketError('ECONNREFUSED');
    assert.equal(isDatabaseUnavailable(refused), false, 'storage or another service');
    markConnectFailure(refused);
    assert.ok(isDatabaseUnavailable(refused), 'the pool could not connect');
  });

  it('takes no errno for a SQLSTATE, and other SQLSTATEs for what they are', () => {
    assert.equal(isDatabaseUnavailable(new DrizzleQueryError('select 1', [], sqlState('23505'))), false);
    assert.equal(databaseError(socketError('EPIPE')), null);
    assert.equal(databaseError(socketError('EPERM')), null);
    assert.equal(databaseError(sqlState('23505'))?.code, '23505');
  });
});
