/**
 * Hashtag autocomplete among thousands of tags sharing their first letters: what it finds (the most used
 * of them, then the first by letter), that a typo after the first letters is still found, and the plans
 * PostgreSQL keeps for its statements (suggestion-statements.ts): each source of candidates a bounded
 * read of its index, whatever the number of tags.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { keptPlan } from '../../../test/helpers/kept-plan.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { suggestionBounds, suggestionStatements } from './suggestion-statements.ts';

describe('hashtag autocomplete among thousands of tags', () => {
  let t: TestApp;
  /** The 5,000 tags "p" and 32 hex digits and the 15 "paris…", in code-point order. */
  let pTags: string[];
  const autocomplete = (q: string, limit = 50) =>
    t.request({ method: 'GET', url: `/api/media/hashtags/autocomplete?q=${encodeURIComponent(q)}&limit=${limit}` });
  const names = (res: { json: { data: Array<{ id: string }> } }) => res.json.data.map((item) => item.id);

  /** Every tag found by paging through a query's suggestions, with their match, 50 a page. */
  const allPagesOf = async (q: string) => {
    const found: Array<{ tag: string; match: string; uses: number }> = [];
    let url: string | null = `/api/media/hashtags/autocomplete?q=${encodeURIComponent(q)}&limit=50`;
    while (url !== null) {
      const res = await t.request({ method: 'GET', url });
      assert.equal(res.statusCode, 200, res.body);
      for (const item of res.json.data) found.push({ tag: item.id, ...item.attributes });
      const next: string | null = res.json.links.next;
      url = next === null ? null : new URL(next).pathname + new URL(next).search;
    }
    return found;
  };

  before(async () => {
    t = await createTestApp();
    // The counts as the hashtags job keeps them, written directly: 5,000 rarely used "p" tags, the most
    // used tag of all late in the alphabet ("pzpopular"), and 1,000 "q" tags that outrank the other "p"
    // ones (so none of those is among the most used).
    const db = t.deps.database.db;
    await db.execute(sql`INSERT INTO hashtag_uses (tag, folded, uses)
      SELECT 'p' || md5(i::text), 'p' || md5(i::text), 1 + i % 3 FROM generate_series(1, 5000) AS i
      UNION ALL SELECT 'pzpopular', 'pzpopular', 5000
      UNION ALL SELECT 'q' || i, 'q' || i, 100 + i FROM generate_series(1, 1000) AS i
      UNION ALL SELECT 'paris' || suffix, 'paris' || suffix, 1
        FROM unnest(ARRAY['', 'night', 'food'] || ARRAY(SELECT i::text FROM generate_series(1, 12) AS i)) AS suffix`);
    await db.execute(sql`ANALYZE hashtag_uses`);
    pTags = (
      await queryRows<{ tag: string }>(
        db,
        sql`SELECT tag FROM hashtag_uses WHERE tag LIKE 'p%' AND tag <> 'pzpopular' ORDER BY folded COLLATE "C", tag COLLATE "C"`,
      )
    ).map((row) => row.tag);
  });
  after(() => t.close());

  it('finds a broad prefix’s most used tag first, then ranks its first tags by letter', async () => {
    const first = await autocomplete('p', 5);
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(names(first)[0], 'pzpopular', 'the most used, though last by letter');
    const found = await allPagesOf('p');
    assert.ok(
      found.every((item) => item.match === 'prefix'),
      'a page of prefixes needs no similar tag',
    );
    const expected = ['pzpopular', ...pTags.slice(0, suggestionBounds.prefixTags)];
    assert.deepEqual(found.map((item) => item.tag).toSorted(), expected.toSorted());
    for (let i = 1; i < found.length; i += 1) {
      assert.ok(found[i - 1]!.uses >= found[i]!.uses, 'by uses');
    }
  });

  it('finds every tag of a query narrow enough, as before', async () => {
    const prefix = pTags[2500]!.slice(0, 4);
    const matching = pTags.filter((tag) => tag.startsWith(prefix));
    assert.ok(matching.length > 0 && matching.length < suggestionBounds.prefixTags);
    const found = await allPagesOf(prefix);
    assert.deepEqual(
      found
        .filter((item) => item.match === 'prefix')
        .map((item) => item.tag)
        .toSorted(),
      matching.toSorted(),
    );
  });

  it('finds a typo made after the first letters among thousands of tags that share them', async () => {
    const tag = pTags[2500]!;
    const typo = `${tag.slice(0, -1)}${tag.endsWith('0') ? '1' : '0'}`;
    const found = await allPagesOf(typo);
    assert.ok(
      found.some((item) => item.tag === tag && item.match === 'similar'),
      `${typo} finds ${tag}: ${found.map((item) => item.tag).join(', ')}`,
    );
  });

  it('finds the typo of a tag that others extend, far from it in code-point order', async () => {
    // paris, paris1 … paris12, parisfood, parisnight: 14 tags sort between "paris" and "pariz".
    const found = await allPagesOf('pariz');
    assert.ok(
      found.some((item) => item.tag === 'paris' && item.match === 'similar'),
      found.map((item) => item.tag).join(', '),
    );
  });

  it('keeps plans that read each source of candidates from its index, and stop there', async () => {
    for (const direction of ['first', 'after', 'before'] as const) {
      for (const kind of ['prefixes', 'similar'] as const) {
        const { text } = suggestionStatements[direction][kind];
        const values = direction === 'first' ? ['p', 11] : ['p', 11, 1, 3, 'p9'];
        const plan = (await keptPlan(t.services.platform.transactions, text, values)).join('\n');
        const where = `${direction} ${kind}:\n${plan}`;
        assert.doesNotMatch(plan, /Seq Scan on hashtag_uses/, where);
        assert.doesNotMatch(plan, /Bitmap/, where);
        assert.match(plan, /Index Only Scan using hashtag_uses_most_used/, where);
        assert.match(plan, /Limit[\s\S]*Index (Only )?Scan using hashtag_uses_folded_tag/, where);
        // Only the candidates are sorted: never the tags a prefix matches.
        assert.doesNotMatch(plan, /Sort Key: hashtag_uses\.(folded|tag)/, where);
      }
    }
  });
});
