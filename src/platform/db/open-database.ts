import { join } from 'node:path';
import type { Config } from '../../config.ts';
import type { Database } from './database.ts';
import { openPglite } from './pglite-database.ts';
import { copyPgliteTemplate, findPgliteTemplate, isEmptyDirectory } from './pglite-template.ts';
import { openPostgres } from './postgres-database.ts';
import type { ReplicaLogger } from './replica.ts';

/**
 * PostgreSQL when DATABASE_URL is set, otherwise embedded PGlite under DATA_DIR/db: a new one is a copy
 * of the migrated template in DATABASE_TEMPLATE_DIR when there is one for these migrations
 * (platform/db/pglite-template.ts), else PGlite makes it and the migrations run. A read replica
 * (DATABASE_REPLICA_URL) is opened beside PostgreSQL only; PGlite ignores it, with a warning.
 */
export async function openDatabase(
  config: Pick<
    Config,
    | 'databaseUrl'
    | 'databaseMigrationUrl'
    | 'databasePoolSize'
    | 'dataDir'
    | 'databaseReplicaUrl'
    | 'databaseReplicaMaxLagSeconds'
    | 'databaseTemplateDir'
  >,
  logger: ReplicaLogger,
): Promise<Database> {
  if (config.databaseUrl !== null)
    return openPostgres(
      config.databaseUrl,
      config.databasePoolSize,
      config.databaseMigrationUrl ?? config.databaseUrl,
      config.databaseReplicaUrl === null
        ? null
        : { url: config.databaseReplicaUrl, maxLagMs: config.databaseReplicaMaxLagSeconds * 1000, logger },
    );
  if (config.databaseReplicaUrl !== null)
    logger.warn(
      { event: 'db.replicaIgnored' },
      'DATABASE_REPLICA_URL is ignored: a read replica needs DATABASE_URL (PostgreSQL), not embedded PGlite',
    );
  const dir = join(config.dataDir, 'db');
  const template =
    config.databaseTemplateDir !== null && isEmptyDirectory(dir)
      ? findPgliteTemplate(config.databaseTemplateDir)
      : null;
  if (template !== null) {
    copyPgliteTemplate(template, dir);
    logger.info({ event: 'db.fromTemplate', template }, 'new database copied from the migrated template');
  }
  return openPglite(dir);
}
