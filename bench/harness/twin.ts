/**
 * The floor twin of each scenario (twin-server.ts), on PostgreSQL: what the scenario costs with no
 * framework, mapping, rendering or serialization.
 *
 * captureScenarios: before the run, a second service process connects through a recording relay
 * (wire-recorder.ts); each scenario's request is sent twice to warm it (caches, prepared statements),
 * then recorded, which keeps the statements PostgreSQL received for it (the job queue's own statements
 * left out) and the answer's status, content type and bytes. The measured
 * service connects directly, as in every run.
 *
 * measureAgainstTwin: the service and its twin on the same path, alternated, best of two each.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AllocationSampler, allocationSampler, countingAllocations } from './allocations.ts';
import { endsWithBenchmark } from './children.ts';
import { checkoutDir } from './cpu.ts';
import { type Callgrind, countingInstructions, underCallgrind } from './instructions.ts';
import { jobRunsDuring, type Window } from './job-runs.ts';
import { type LoadResult, type LoadSettings, measureLoad } from './load.ts';
import { startServer } from './server.ts';
import { type RecordedStatement, startWireRecorder } from './wire-recorder.ts';

export interface TwinScenario {
  path: string;
  headers?: Record<string, string>;
}

export interface Capture {
  path: string;
  statements: RecordedStatement[];
  status: number;
  contentType: string;
  /** The answer's bytes, base64. */
  body: string;
}

/**
 * Each scenario is recorded this many times and the recording with the fewest statements kept: what
 * the service does once a second or once a minute for all requests (the maintenance flag, a session's
 * last-seen time) is not the request's own work.
 */
const recordings = 3;

/** Statements the service sends after answering (after-commit work) are the request's too. */
const afterAnswerMs = 200;

const isJobQueueStatement = (statement: RecordedStatement) => /\bpgboss\b/i.test(statement.text);

export async function captureScenarios(
  databaseUrl: string,
  serverEnv: Record<string, string>,
  scenarios: TwinScenario[],
): Promise<Capture[]> {
  const target = new URL(databaseUrl);
  const recorder = await startWireRecorder({ host: target.hostname, port: Number(target.port || 5432) });
  const relayed = Object.assign(new URL(databaseUrl), { host: `127.0.0.1:${recorder.port}` }).toString();
  const server = await startServer({ ...serverEnv, DATABASE_URL: relayed }, { counted: false });
  try {
    const captures: Capture[] = [];
    for (const { path, headers = {} } of scenarios) {
      const send = () => fetch(`${server.url}${path}`, { headers });
      for (let warm = 0; warm < 2; warm += 1) await (await send()).arrayBuffer();
      let fewest: Capture | null = null;
      for (let take = 0; take < recordings; take += 1) {
        recorder.start();
        const response = await send();
        const body = Buffer.from(await response.arrayBuffer());
        await new Promise((resolve) => setTimeout(resolve, afterAnswerMs));
        const statements = recorder.stop().filter((statement) => !isJobQueueStatement(statement));
        if (fewest !== null && fewest.statements.length <= statements.length) continue;
        fewest = {
          path,
          statements,
          status: response.status,
          contentType: response.headers.get('content-type') ?? 'application/octet-stream',
          body: body.toString('base64'),
        };
      }
      if (fewest !== null) captures.push(fewest);
    }
    return captures;
  } finally {
    await server.stop();
    await recorder.close();
  }
}

export interface Twin {
  url: string;
  pid: number;
  /** Its instruction counters, when it runs under callgrind (BENCH_COUNT=instructions, instructions.ts). */
  callgrind: Callgrind | null;
  /** Its allocation sampler, when the run counts allocations (BENCH_COUNT=allocations, allocations.ts). */
  allocations: AllocationSampler | null;
  stop(): Promise<void>;
}

/** The twin server in its own process, answering the captured paths; under callgrind when the run counts. */
export async function startTwin(databaseUrl: string, captures: Capture[], poolSize: number): Promise<Twin> {
  const folder = mkdtempSync(join(tmpdir(), 'tms-twin-'));
  const file = join(folder, 'captures.json');
  writeFileSync(file, JSON.stringify(captures));
  // BENCH_TWIN_CAPTURES=<file> keeps what each scenario sent and answered, to read afterwards.
  if (process.env.BENCH_TWIN_CAPTURES)
    writeFileSync(process.env.BENCH_TWIN_CAPTURES, JSON.stringify(captures, null, 1));
  const script = fileURLToPath(new URL('./twin-server.ts', import.meta.url));
  const allocations = countingAllocations() ? allocationSampler() : null;
  const plain = [process.execPath, ...(allocations?.flags ?? []), script, file, databaseUrl, String(poolSize)];
  const callgrind = countingInstructions() ? underCallgrind(plain, process.env) : null;
  const [command, ...args] = callgrind?.command ?? plain;
  const child = endsWithBenchmark(
    spawn(command!, args, {
      cwd: checkoutDir,
      env: { ...process.env, ...allocations?.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return {
    url: `http://127.0.0.1:${chunk.toString().trim()}`,
    pid: child.pid!,
    callgrind,
    allocations,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(folder, { recursive: true, force: true });
      callgrind?.remove();
      allocations?.remove();
    },
  };
}

/** The pool size the service runs with (its default unless the run sets DATABASE_POOL_SIZE). */
export const servicePoolSize = (): number => Number(process.env.DATABASE_POOL_SIZE ?? 10);

/** A measurement and the time it spanned. */
type Timed = { result: LoadResult; window: Window };

async function timed(measure: () => Promise<LoadResult>): Promise<Timed> {
  const from = new Date();
  const result = await measure();
  return { result, window: { from, to: new Date() } };
}

const faster = (a: Timed, b: Timed) => (b.result.rps > a.result.rps ? b : a);

/**
 * The service and its twin on one path, alternated (service, twin, service, twin), best of two each,
 * with the service's job runs that overlapped the two windows kept (job-runs.ts).
 */
export async function measureAgainstTwin(
  serviceUrl: string,
  twinUrl: string,
  path: string,
  settings: LoadSettings,
  headers: Record<string, string> = {},
  databaseUrl: string | null = null,
): Promise<{ result: LoadResult; twin: LoadResult; jobRuns: { service: string[]; twin: string[] } }> {
  const service1 = await timed(() => measureLoad(`${serviceUrl}${path}`, settings, { headers }));
  const twin1 = await timed(() => measureLoad(`${twinUrl}${path}`, settings));
  const service2 = await timed(() => measureLoad(`${serviceUrl}${path}`, settings, { headers }));
  const twin2 = await timed(() => measureLoad(`${twinUrl}${path}`, settings));
  const [service, twin] = [faster(service1, service2), faster(twin1, twin2)];
  const [serviceRuns = [], twinRuns = []] =
    databaseUrl === null ? [] : await jobRunsDuring(databaseUrl, [service.window, twin.window]);
  return { result: service.result, twin: twin.result, jobRuns: { service: serviceRuns, twin: twinRuns } };
}
