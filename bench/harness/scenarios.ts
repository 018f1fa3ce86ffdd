/**
 * A benchmark's scenarios measured the one way every benchmark measures them: on PostgreSQL each
 * against its floor twin (twin.ts), alternated, best of two each; on PGlite alone (the twin needs a
 * PostgreSQL to run the statements on). BENCH_ONLY=<text> keeps only the scenarios whose title
 * contains it (ping is always measured: it is the anchor), e.g. to profile one.
 */
import type { LoadSettings } from './load.ts';
import { measureLoad } from './load.ts';
import { fasterAnchor, jobRunsLines, loadTable, type Row } from './report.ts';
import type { ServerProcess } from './server.ts';
import { captureScenarios, measureAgainstTwin, servicePoolSize, startTwin } from './twin.ts';

export interface Scenario {
  title: string;
  path: string;
  headers?: Record<string, string>;
}

export interface ScenarioRun {
  server: ServerProcess;
  /** The scratch database's URL (PostgreSQL) and the environment the server was started with. */
  databaseUrl: string | null;
  serverEnv: Record<string, string>;
  settings: LoadSettings;
}

const isAnchor = (scenario: Scenario) => scenario.path === '/api/ping';

export async function measureScenarios(run: ScenarioRun, scenarios: Scenario[]): Promise<Row[]> {
  const only = process.env.BENCH_ONLY;
  const chosen = scenarios.filter((scenario) => !only || isAnchor(scenario) || scenario.title.includes(only));
  const { server, databaseUrl, settings } = run;
  if (databaseUrl === null) {
    const rows: Row[] = [];
    for (const { title, path, headers } of chosen) {
      rows.push({ scenario: title, result: await measureLoad(`${server.url}${path}`, settings, { headers }) });
    }
    return rows;
  }
  const captures = await captureScenarios(databaseUrl, run.serverEnv, chosen);
  const twin = await startTwin(databaseUrl, captures, servicePoolSize());
  try {
    const rows: Row[] = [];
    for (const { title, path, headers } of chosen) {
      const measured = await measureAgainstTwin(server.url, twin.url, path, settings, headers, databaseUrl);
      rows.push({ scenario: title, result: measured.result, twin: measured.twin, jobRuns: measured.jobRuns });
    }
    return rows;
  } finally {
    await twin.stop();
  }
}

/**
 * Ends a run whose rows begin and end with ping (the anchor, measured before and after the
 * scenarios): stops the server and prints the table against the faster ping. Returns the server's
 * resident memory after the run.
 */
export async function stopAndPrintTable(server: ServerProcess, rows: Row[]): Promise<number> {
  const rssMb = server.rssMb();
  await server.stop();
  console.log(`\n${loadTable(rows, fasterAnchor(rows[0]!, rows[rows.length - 1]!).result)}`);
  const jobRuns = jobRunsLines(rows);
  if (jobRuns !== '') console.log(`\n${jobRuns}`);
  return rssMb;
}
