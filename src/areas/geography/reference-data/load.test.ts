import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openTestDatabase } from '../../../../test/helpers/database.ts';
import type { Database, RawConnection } from '../../../platform/db/database.ts';
import { up } from './load.ts';

/** Every city row, the cities' constraints and indexes, as one fingerprint. */
const fingerprint = async (conn: RawConnection) => {
  const [row] = await conn.query<{ rows: string; constraints: string; indexes: string; count: number }>(
    `SELECT (SELECT md5(string_agg(c::text, '|' ORDER BY c.id)) FROM cities AS c) AS rows,
            (SELECT string_agg(conname || ' ' || pg_get_constraintdef(oid), '; ' ORDER BY conname)
             FROM pg_constraint WHERE conrelid = 'cities'::regclass) AS constraints,
            (SELECT string_agg(indexdef, '; ' ORDER BY indexname) FROM pg_indexes WHERE tablename = 'cities') AS indexes,
            (SELECT count(*)::int FROM cities) AS count`,
  );
  return row!;
};

const rolledBack = new Error('rolled back');

/** Runs fn in a transaction that is always rolled back. */
async function inRolledBackTransaction(database: Database, fn: (conn: RawConnection) => Promise<void>) {
  await assert.rejects(
    database.withMigrationLock((conn) =>
      conn.transaction(async (tx) => {
        await fn(tx);
        throw rolledBack;
      }),
    ),
    (error) => error === rolledBack,
  );
}

describe('the geography reference data (migration 0301)', () => {
  let database: Database;
  before(async () => {
    database = await openTestDatabase();
  });
  after(() => database.close());

  it('loaded into an empty table gives the same cities, with their key and country reference back in place', async () => {
    await inRolledBackTransaction(database, async (conn) => {
      const migrated = await fingerprint(conn);
      assert.ok(migrated.count > 100_000, `${migrated.count} cities`);
      // As when 0301 runs: no row, and no table yet referring to a city (later migrations add some).
      const referring = await conn.query<{ table: string; name: string }>(
        `SELECT conrelid::regclass::text AS table, conname AS name FROM pg_constraint WHERE confrelid = 'cities'::regclass`,
      );
      for (const { table, name } of referring) await conn.exec(`ALTER TABLE ${table} DROP CONSTRAINT ${name}`);
      await conn.exec('DELETE FROM cities');
      await up(conn);
      assert.deepEqual(await fingerprint(conn), migrated);
      assert.match(
        migrated.constraints,
        /cities_country_code_fkey FOREIGN KEY \(country_code\) REFERENCES countries\(alpha2\)/,
      );
      assert.match(migrated.constraints, /cities_pkey PRIMARY KEY \(id\)/);
    });
  });

  it('loaded again over its own rows changes nothing', async () => {
    await inRolledBackTransaction(database, async (conn) => {
      const migrated = await fingerprint(conn);
      await up(conn);
      assert.deepEqual(await fingerprint(conn), migrated);
    });
  });
});
