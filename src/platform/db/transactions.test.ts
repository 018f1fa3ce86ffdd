/** The transaction carried by the async context, on the test engine. */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { openTestDatabase } from '../../../test/helpers/database.ts';
import type { Database } from './database.ts';
import { uniqueViolation } from './errors.ts';
import { LockOrderViolation } from './lock-order.ts';
import { queryRows } from './rows.ts';
import { TransactionAborted, Transactions } from './transactions.ts';

describe('transactions', () => {
  let database: Database;
  let transactions: Transactions;
  const afterCommitErrors: unknown[] = [];
  before(async () => {
    database = await openTestDatabase();
    await database.db.execute(sql`CREATE TABLE tx_probe (n integer NOT NULL UNIQUE)`);
    transactions = new Transactions(database.db, (error) => afterCommitErrors.push(error));
  });
  after(() => database.close());
  beforeEach(async () => {
    await database.db.execute(sql`DELETE FROM tx_probe`);
    afterCommitErrors.length = 0;
  });

  const insert = (n: number) => transactions.db.execute(sql`INSERT INTO tx_probe (n) VALUES (${n})`);
  const stored = async () =>
    (await queryRows<{ n: number }>(database.db, sql`SELECT n FROM tx_probe ORDER BY n`)).map((row) => row.n);

  it('gives every statement of the async context the same transaction, and commits them together', async () => {
    const seen: boolean[] = [];
    await transactions.run(async () => {
      seen.push(transactions.active);
      await insert(1);
      await Promise.all([insert(2), (async () => insert(3))()]);
      // The transaction sees its own rows.
      const [row] = await queryRows<{ n: number }>(transactions.db, sql`SELECT count(*)::int AS n FROM tx_probe`);
      assert.equal(row!.n, 3);
    });
    assert.deepEqual(seen, [true]);
    assert.equal(transactions.active, false);
    assert.deepEqual(await stored(), [1, 2, 3]);
  });

  it('rolls everything back when fn throws, nested runs included, and runs no after-commit work', async () => {
    let afterCommitRan = false;
    await assert.rejects(
      transactions.run(async () => {
        await insert(1);
        await transactions.run(async () => {
          await insert(2);
          await transactions.afterCommit(() => {
            afterCommitRan = true;
          });
        });
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.deepEqual(await stored(), []);
    assert.equal(afterCommitRan, false);
  });

  it('runs after-commit work once the outermost transaction has committed, in order, and reports its errors', async () => {
    const order: string[] = [];
    await transactions.run(async () => {
      await insert(1);
      await transactions.afterCommit(async () => {
        order.push(`first saw ${(await stored()).length} row(s)`);
      });
      await transactions.run(async () => {
        await transactions.afterCommit(() => {
          throw new Error('mail server down');
        });
        await transactions.afterCommit(() => {
          order.push('second');
        });
      });
      order.push('fn done');
    });
    assert.deepEqual(order, ['fn done', 'first saw 1 row(s)', 'second']);
    assert.equal(afterCommitErrors.length, 1);
    assert.match(String(afterCommitErrors[0]), /mail server down/);
  });

  it('outside a transaction, statements run on their own and after-commit work runs at once', async () => {
    await insert(7);
    let ran = false;
    await transactions.afterCommit(() => {
      ran = true;
    });
    assert.equal(ran, true);
    assert.deepEqual(await stored(), [7]);
  });

  describe('a statement that may fail, caught inside a transaction', () => {
    it('rolls back alone in attempt (a savepoint), with its after-commit work, and the transaction goes on', async () => {
      const ran: string[] = [];
      await transactions.run(async () => {
        await insert(1);
        await assert.rejects(
          transactions.attempt(async () => {
            await insert(2);
            await transactions.afterCommit(() => {
              ran.push('rolled back');
            });
            await insert(1);
          }),
          (error: unknown) => uniqueViolation(error) !== null,
        );
        await transactions.attempt(async () => {
          await insert(3);
          await transactions.afterCommit(() => {
            ran.push('kept');
          });
        });
        await insert(4);
      });
      assert.deepEqual(await stored(), [1, 3, 4]);
      assert.deepEqual(ran, ['kept']);
    });

    it('is a transaction of its own in attempt outside one', async () => {
      await assert.rejects(
        transactions.attempt(async () => {
          await insert(5);
          await insert(5);
        }),
      );
      assert.deepEqual(await stored(), []);
    });

    it('out of a nested run, is refused: the transaction is aborted, and rolled back', async () => {
      await assert.rejects(
        transactions.run(async () => {
          await insert(1);
          await transactions.run(() => insert(1)).catch(() => {});
          await insert(2);
        }),
        (error: unknown) => error instanceof TransactionAborted && uniqueViolation(error.cause) !== null,
      );
      assert.deepEqual(await stored(), []);
    });

    it('keeps the row locks of a kept attempt, and forgets those of one rolled back to', async () => {
      const user = '00000000-0000-4000-8000-000000000001';
      await transactions.run(async () => {
        await transactions.attempt(async () => transactions.noteRowLock('user', user));
        await assert.rejects(
          transactions.attempt(async () => {
            transactions.noteRowLock('user', `${user.slice(0, -1)}2`);
            await insert(1);
            await insert(1);
          }),
        );
        transactions.noteRowLock('media', 'm1');
        // Held since the kept attempt: locking it again waits for nothing.
        transactions.noteRowLock('user', user);
        // Released with its savepoint: locking it now, after a media, is out of order.
        assert.throws(() => transactions.noteRowLock('user', `${user.slice(0, -1)}2`), LockOrderViolation);
      });
    });
  });
});
