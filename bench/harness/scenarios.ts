/**
 * A benchmark's scenarios measured the one way every benchmark measures them: on PostgreSQL each
 * against its floor twin (twin.ts), alternated, best of two each; on PGlite alone (the twin needs a
 * PostgreSQL to run the statements on). BENCH_ONLY=<text> keeps only the scenarios whose title
 * contains it, or one of its `|`-separated parts (ping is always measured: it is the anchor), e.g. to
 * profile one. BENCH_COUNT=instructions counts the instructions a request instead (instructions.ts),
 * the service's and the twin's; BENCH_COUNT=allocations what a request allocates (allocations.ts).
 */

import { allocationsPerRequest, allocationsTable } from './allocations.ts';
import { functionsCounted, functionsTables } from './function-counts.ts';
import { countPerRequest, instructionsTable } from './instructions.ts';
import type { LoadSettings } from './load.ts';
import { measureLoad } from './load.ts';
import {
  type AllocatedRow,
  type CountedRow,
  fasterAnchor,
  isAllocated,
  isCounted,
  jobRunsLines,
  type LoadRow,
  loadTable,
  type Row,
  threadsTable,
} from './report.ts';
import type { ServerProcess } from './server.ts';
import { captureScenarios, measureAgainstTwin, servicePoolSize, startTwin, type Twin } from './twin.ts';

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
  const only = process.env.BENCH_ONLY?.split('|');
  const chosen = scenarios.filter(
    (scenario) => !only || isAnchor(scenario) || only.some((part) => scenario.title.includes(part)),
  );
  const { server, databaseUrl, settings } = run;
  if (server.callgrind !== null) return countScenarios(run, chosen);
  if (server.allocations !== null) return sampleScenarios(run, chosen);
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
 * Each scenario counted (BENCH_COUNT): the service's count a request and (on PostgreSQL) its twin's,
 * one after the other; `count` measures one process on one path.
 */
async function countEach<C>(
  { server, databaseUrl, serverEnv }: ScenarioRun,
  chosen: Scenario[],
  count: (process: ServerProcess | Twin, url: string, headers?: Record<string, string>) => Promise<C>,
): Promise<{ scenario: string; service: C; twin: C | null }[]> {
  const twin =
    databaseUrl === null
      ? null
      : await startTwin(databaseUrl, await captureScenarios(databaseUrl, serverEnv, chosen), servicePoolSize());
  try {
    const rows: { scenario: string; service: C; twin: C | null }[] = [];
    for (const { title, path, headers } of chosen) {
      const service = await count(server, `${server.url}${path}`, headers);
      rows.push({ scenario: title, service, twin: twin === null ? null : await count(twin, `${twin.url}${path}`) });
    }
    return rows;
  } finally {
    await twin?.stop();
  }
}

/** Each scenario's instructions a request (instructions.ts). */
const countScenarios = async (run: ScenarioRun, chosen: Scenario[]): Promise<CountedRow[]> =>
  (
    await countEach(run, chosen, (counted, url, headers) =>
      countPerRequest(counted.callgrind!, counted.pid, url, headers),
    )
  ).map(({ scenario, service, twin }) => ({ scenario, counted: { service, twin } }));

/** Each scenario's allocations a request (allocations.ts). */
const sampleScenarios = async (run: ScenarioRun, chosen: Scenario[]): Promise<AllocatedRow[]> =>
  (
    await countEach(run, chosen, (sampled, url, headers) =>
      allocationsPerRequest(sampled.allocations!, sampled.pid, url, headers),
    )
  ).map(({ scenario, service, twin }) => ({ scenario, allocated: { service, twin } }));

/** Each counted scenario's tables by function, when the run counted them (function-counts.ts). */
const countedFunctionsTables = (rows: CountedRow[]): string[] =>
  rows.flatMap(({ scenario, counted: { service, twin } }) =>
    service.functions === undefined
      ? []
      : [functionsTables(scenario, service.functions, twin?.functions ?? null, functionsCounted())],
  );

/** A run's table: under load, against the faster ping (its first and last rows); counted, as counted. */
export function scenariosTable(rows: Row[]): string {
  const counted = rows.filter(isCounted);
  if (counted.length > 0) return [instructionsTable(counted), ...countedFunctionsTables(counted)].join('\n\n');
  const allocated = rows.filter(isAllocated);
  if (allocated.length > 0) return allocationsTable(allocated);
  const loaded = rows as LoadRow[];
  return loadTable(loaded, fasterAnchor(loaded[0]!, loaded[loaded.length - 1]!).result);
}

/**
 * Ends a run whose rows begin and end with ping (the anchor, measured before and after the
 * scenarios): stops the server and prints the table against the faster ping. Returns the server's
 * resident memory after the run.
 */
export async function stopAndPrintTable(server: ServerProcess, rows: Row[]): Promise<number> {
  const rssMb = server.rssMb();
  await server.stop();
  console.log(`\n${scenariosTable(rows)}`);
  const loaded = rows.filter((row): row is LoadRow => !isCounted(row) && !isAllocated(row));
  const threads = threadsTable(loaded);
  if (threads !== '') console.log(`\n${threads}`);
  const jobRuns = jobRunsLines(loaded);
  if (jobRuns !== '') console.log(`\n${jobRuns}`);
  return rssMb;
}
