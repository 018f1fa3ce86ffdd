/**
 * forgot-password and resend-confirmation answer before any per-account work: their timing must not
 * tell whether an account exists. Proved without a clock: while another connection holds the users
 * table (PostgreSQL: an exclusive lock; PGlite: a transaction on its only session), the answer for an
 * existing account still comes, and the mail follows once the table is free.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser } from '../../../test/helpers/factories.ts';

describe('mail requests answer before looking the account up', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  for (const url of ['/api/auth/forgot-password', '/api/auth/resend-confirmation']) {
    // Before the fix the request waited on the held table: the timeout turns that deadlock into a failure.
    it(`${url} answers 202 while the account cannot be read yet`, { timeout: 60_000 }, async () => {
      const user = await createUser(t);
      await t.services.areas.accounts.mailFlows.drain();
      // An instance's first request reads the maintenance state; later ones never wait for it.
      await t.request({ method: 'GET', url: '/api/i18n/locales' });
      const mailsBefore = t.mail.sent.length;
      await t.deps.database.withMigrationLock((conn) =>
        conn.transaction(async (held) => {
          await held.exec('LOCK TABLE users IN ACCESS EXCLUSIVE MODE');
          const res = await t.request({ method: 'POST', url, body: { email: user.email } });
          assert.equal(res.statusCode, 202);
          assert.equal(t.mail.sent.length, mailsBefore, 'no mail yet: the account was not read');
        }),
      );
      await t.services.areas.accounts.mailFlows.drain();
      assert.equal(t.mail.sent.length, mailsBefore + 1, 'the mail left once the account could be read');
      assert.ok(t.mail.last(user.email));
    });
  }
});
