/**
 * npm's postinstall (so `npm ci` runs it): makes the migrated embedded database that a first start on
 * an empty DATA_DIR copies instead of running PostgreSQL's initdb and every migration itself
 * (src/platform/db/pglite-template.ts), into DATABASE_TEMPLATE_DIR (default
 * node_modules/.cache/travel-media-service), and removes the templates of other migrations or PGlite
 * versions there. About 10 to 15 s of CPU, once per install and set of migrations; nothing when the
 * template is there already or DATABASE_TEMPLATE_DIR is set empty. A failure only warns: the install
 * stands, and a first start then makes its database itself.
 */
import { databaseTemplateDirOf } from '../src/config.ts';
import { ensurePgliteTemplate, removeOtherPgliteTemplates } from '../src/platform/db/pglite-template.ts';

const root = databaseTemplateDirOf();
if (root === null) {
  console.log('database template: DATABASE_TEMPLATE_DIR is empty, none made');
} else {
  try {
    const started = performance.now();
    const template = await ensurePgliteTemplate(root);
    removeOtherPgliteTemplates(root, template);
    console.log(`database template: ${template} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    console.warn(`database template not made (a first start will migrate its own database): ${String(error)}`);
  }
}
