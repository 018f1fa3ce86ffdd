/**
 * The server (started by src/main.ts): read the configuration, start opening the database, and load
 * the rest of the server (src/serve.ts: migrations, the app, listen, jobs, graceful stop) meanwhile:
 * PGlite's open compiles its WebAssembly on a worker thread and reads its files while the main thread
 * loads the app's modules, instead of after them.
 */
import pino from 'pino';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './platform/db/open-database.ts';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`configuration error: ${error.problems.join('; ')}`);
      process.exit(78);
    }
    throw error;
  }
  // Written asynchronously: lines are gathered while a write is in flight and written together by
  // libuv's pool, not one blocking write each on the event loop (an access line a request,
  // access-log.ts). pino writes what is left when the process exits.
  const logger = pino({ level: config.logLevel }, pino.destination({ sync: false }));
  const [database, { serve }] = await Promise.all([openDatabase(config, logger), import('./serve.ts')]);
  await serve(config, logger, database);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
