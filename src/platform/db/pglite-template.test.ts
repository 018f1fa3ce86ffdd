/**
 * The migrated template a new embedded database is copied from (npm ci makes it; a first start copies
 * it). Made here from nothing, in a folder of this file's own: PostgreSQL's initdb and every migration,
 * as a start without a template does. Run with the PGlite suite only (the PostgreSQL suite has no use
 * for a second one).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { testEngine } from '../../../test/helpers/database.ts';
import { migrate, readMigrations } from './migrate.ts';
import { openDatabase } from './open-database.ts';
import { openPglite } from './pglite-database.ts';
import {
  copyPgliteTemplate,
  ensurePgliteTemplate,
  findPgliteTemplate,
  pgliteTemplateName,
  removeOtherPgliteTemplates,
} from './pglite-template.ts';

/** What openDatabase reads of the configuration, for embedded PGlite in `dataDir`. */
const embedded = (dataDir: string, databaseTemplateDir: string | null) => ({
  databaseUrl: null,
  databaseMigrationUrl: null,
  databasePoolSize: 1,
  dataDir,
  databaseReplicaUrl: null,
  databaseReplicaMaxLagSeconds: 5,
  databaseTemplateDir,
});

describe('the migrated PGlite template', { skip: testEngine() !== 'pglite' && 'PGlite only' }, () => {
  const root = mkdtempSync(join(tmpdir(), 'tms-template-test-'));
  const templates = join(root, 'templates');
  let template: string;
  before(async () => {
    template = await ensurePgliteTemplate(templates);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('is made once under its name, for this PGlite and these migrations, and found there', async () => {
    assert.equal(template, join(templates, pgliteTemplateName()));
    assert.match(pgliteTemplateName(), /^pglite-\d+\.\d+\.\d+-[0-9a-f]{12}$/);
    assert.deepEqual(readdirSync(templates), [pgliteTemplateName()], 'no building folder left beside it');
    assert.equal(findPgliteTemplate(templates), template);
    const madeAt = statSync(join(template, 'complete')).mtimeMs;
    assert.equal(await ensurePgliteTemplate(templates), template);
    assert.equal(statSync(join(template, 'complete')).mtimeMs, madeAt, 'not made again');
    assert.equal(findPgliteTemplate(join(root, 'elsewhere')), null);
  });

  it('opens, copied, with every migration applied and the geography loaded', async () => {
    const copy = join(root, 'copy', 'db');
    copyPgliteTemplate(template, copy);
    assert.equal(existsSync(join(copy, 'complete')), false, "the template's marker is not copied");
    const database = await openPglite(copy);
    try {
      assert.deepEqual(await migrate(database), [], 'nothing left to migrate');
      const [counts] = await database.withMigrationLock((conn) =>
        conn.query<{ migrations: number; cities: number }>(
          'SELECT (SELECT count(*) FROM schema_migrations)::int AS migrations, (SELECT count(*) FROM cities)::int AS cities',
        ),
      );
      assert.equal(counts?.migrations, readMigrations().length);
      assert.ok((counts?.cities ?? 0) > 100_000, `cities: ${counts?.cities}`);
    } finally {
      await database.close();
    }
  });

  it('is what a start on an empty DATA_DIR opens, and never replaces a database that is there', async () => {
    const dataDir = join(root, 'data');
    mkdirSync(join(dataDir, 'db.copying-1'), { recursive: true }); // what a start stopped while copying left
    const events: object[] = [];
    const logger = { info: (entry: object) => events.push(entry), warn: (entry: object) => events.push(entry) };
    const config = embedded(dataDir, templates);
    const first = await openDatabase(config, logger);
    try {
      assert.deepEqual(events, [{ event: 'db.fromTemplate', template }]);
      assert.deepEqual(readdirSync(dataDir), ['db'], 'the half copy removed');
      await first.withMigrationLock((conn) =>
        conn.exec('CREATE TABLE kept (note text); INSERT INTO kept VALUES ($$mine$$)'),
      );
    } finally {
      await first.close();
    }
    const again = await openDatabase(config, logger);
    try {
      assert.equal(events.length, 1, 'not copied again');
      const rows = await again.withMigrationLock((conn) => conn.query<{ note: string }>('SELECT note FROM kept'));
      assert.deepEqual(rows, [{ note: 'mine' }]);
    } finally {
      await again.close();
    }
  });

  it('is not looked for when DATABASE_TEMPLATE_DIR is empty', async () => {
    const dataDir = join(root, 'untemplated');
    mkdirSync(join(dataDir, 'db'), { recursive: true });
    const events: object[] = [];
    const logger = { info: (entry: object) => events.push(entry), warn: (entry: object) => events.push(entry) };
    const database = await openDatabase(embedded(dataDir, null), logger);
    try {
      assert.deepEqual(events, []);
      const [row] = await database.withMigrationLock((conn) =>
        conn.query<{ tables: number }>("SELECT count(*)::int AS tables FROM pg_tables WHERE schemaname = 'public'"),
      );
      assert.equal(row?.tables, 0, 'a new database made by PGlite, not a copy');
    } finally {
      await database.close();
    }
  });

  it('removes the templates of other migrations or PGlite versions, and nothing else', () => {
    mkdirSync(join(templates, 'pglite-0.0.1-000000000000'));
    mkdirSync(join(templates, 'notes'));
    removeOtherPgliteTemplates(templates, template);
    assert.deepEqual(readdirSync(templates).sort(), ['notes', pgliteTemplateName()].sort());
  });
});
