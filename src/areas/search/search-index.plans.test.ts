/**
 * The plan of the search-index job's repair after a bulk import: its statistics still say the index
 * holds users only (autovacuum has not analyzed it yet, or does not run), and the media documents the
 * repair writes batch after batch are not in them. Each batch must still find its sources by probing
 * the index's key, never by joining the whole index: a merge join sorting every document, planned for
 * the one media document the statistics promised, made each batch of a million media take 22 s and
 * grow (docs/benchmarks.md, Discovery at info).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { insertFillerUsers } from '../../../test/helpers/factories.ts';
import { plannedFor } from '../../../test/helpers/kept-plan.ts';
import { watchStatements } from '../../../test/helpers/statement-counter.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { IndexRepository } from './index.repository.ts';

describe('the search repair after a bulk import, with the index statistics of before it', () => {
  let t: TestApp;
  let repository: IndexRepository;
  before(async () => {
    t = await createTestApp();
    repository = new IndexRepository(t.services.platform.transactions);
    const db = t.deps.database.db;
    await insertFillerUsers(t, 200);
    // The users' documents, analyzed: the statistics of an index holding users only.
    await repository.upsert('user', await repository.sourceIds('user', null, 1000), t.clock.now());
    await db.execute(sql`ANALYZE search_documents`);
    // Then 20,000 media imported with SQL, and all but the last few hundred indexed, not analyzed.
    await db.execute(sql`INSERT INTO media (id, owner_id, kind, original_key, original_format, byte_size, width, height,
        content_hash, describe_status, hashtags, created_at, updated_at)
      SELECT gen_random_uuid(), owner.id, 'post', 'originals/filler/' || i, 'jpeg', 1000, 40, 30, md5(i::text), 'skipped',
             ARRAY['tag' || i % 50], now(), now()
      FROM generate_series(0, 19999) AS i
      JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM users) AS owner ON owner.n = i % 200`);
    await db.execute(sql`ANALYZE media`);
    await db.execute(sql`ANALYZE users`);
    const indexed = await queryRows<{ id: string }>(db, sql`SELECT id FROM media ORDER BY id LIMIT 19700`);
    const ids = indexed.map((row) => row.id);
    for (let at = 0; at < ids.length; at += 5000)
      await repository.upsert('media', ids.slice(at, at + 5000), t.clock.now());
  });
  after(() => t.close());

  it("probes the index's key for each source instead of joining every document", async () => {
    const statements = watchStatements(t.deps.database);
    const batch = await repository.staleOrMissingIds('media', null, 500);
    statements.restore();
    assert.equal(batch.length, 300, 'the media left out of the index are found');
    const [statement] = statements.sent;
    assert.ok(statement);
    const plan = (await plannedFor(t.services.platform.transactions, statement.text, statement.values)).join('\n');
    assert.match(plan, /Index (Only )?Scan using search_documents_pkey on search_documents/, plan);
    assert.doesNotMatch(plan, /Sort|Merge|Hash|Seq Scan on search_documents/, plan);
  });
});
