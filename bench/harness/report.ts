/** The benchmark's Markdown: where and when it ran, then one row per scenario with its ratio to ping. */
import { cpus, loadavg, totalmem } from 'node:os';
import type { AllocationCount } from './allocations.ts';
import type { InstructionCount } from './instructions.ts';
import type { LoadResult, LoadSettings } from './load.ts';

export function machineLine(engine: string, settings: LoadSettings): string {
  const [one, five] = loadavg();
  return (
    `${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim()}, ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${engine}; ` +
    `load average ${one!.toFixed(2)} (1 min), ${five!.toFixed(2)} (5 min) at the start; ` +
    `${settings.connections} connections, ${settings.seconds} s per scenario`
  );
}

/** A scenario measured under load, or counted (BENCH_COUNT=instructions or allocations). */
export type Row = LoadRow | CountedRow | AllocatedRow;

export interface CountedRow {
  scenario: string;
  counted: { service: InstructionCount; twin: InstructionCount | null };
}

export const isCounted = (row: Row): row is CountedRow => 'counted' in row;

export interface AllocatedRow {
  scenario: string;
  allocated: { service: AllocationCount; twin: AllocationCount | null };
}

export const isAllocated = (row: Row): row is AllocatedRow => 'allocated' in row;

export interface LoadRow {
  scenario: string;
  result: LoadResult;
  /** The scenario's floor twin (twin.ts), measured alternated with it; PostgreSQL only. */
  twin?: LoadResult;
  /** The service's job runs that overlapped the kept window of the service and of the twin (job-runs.ts). */
  jobRuns?: { service: string[]; twin: string[] };
}

const cpuCell = ({ cpuPerRequest: cpu }: LoadResult) =>
  [cpu.server, cpu.database, cpu.load].map((us) => Math.round(us)).join(', ');

/**
 * One row per scenario: its rate and latencies, its ratio to ping, and where its floor twin was
 * measured, the twin's rate and p99, the ratio of rates (the service's share of its floor) and of p99s,
 * and the CPU a request of each.
 */
export function loadTable(rows: LoadRow[], ping: LoadResult): string {
  const withTwin = rows.some((row) => row.twin !== undefined);
  const lines = withTwin
    ? [
        '| scenario | req/s | p50 (ms) | p99 (ms) | vs ping | twin req/s | twin p99 (ms) | vs twin | p99 / twin p99 | CPU µs/request: server, PostgreSQL, load | twin CPU µs/request | bad answers |',
        '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ]
    : [
        '| scenario | req/s | p50 (ms) | p99 (ms) | vs ping | CPU µs/request: server, PostgreSQL, load | bad answers |',
        '|---|---:|---:|---:|---:|---:|---:|',
      ];
  for (const { scenario, result, twin } of rows) {
    const own = `| ${scenario} | ${Math.round(result.rps)} | ${result.p50} | ${result.p99} | ${(result.rps / ping.rps).toFixed(2)} |`;
    if (!withTwin) {
      lines.push(`${own} ${cpuCell(result)} | ${result.bad} |`);
      continue;
    }
    const twinCells =
      twin === undefined
        ? ['', '', '', '', cpuCell(result), '']
        : [
            Math.round(twin.rps),
            twin.p99,
            (result.rps / twin.rps).toFixed(2),
            (result.p99 / Math.max(twin.p99, 1)).toFixed(1),
            cpuCell(result),
            cpuCell(twin),
          ];
    lines.push(`${own} ${twinCells.join(' | ')} | ${result.bad + (twin?.bad ?? 0)} |`);
  }
  return lines.join('\n');
}

const threadsCell = ({ cpuPerRequest: { serverThreads: cpu } }: LoadResult) =>
  [cpu.mainUser, cpu.mainSystem, cpu.otherThreads].map((us) => Math.round(us)).join(', ');

/**
 * The server's CPU a request by thread, the service's beside its twin's (cpu.ts): the main thread in
 * user and in system time, and the other threads. The counted runs (BENCH_COUNT=instructions) see
 * only instructions; this says whether what the service spends beyond its twin under load is the
 * event loop's own work, the kernel's, or its helper threads' (the collector's, libuv's pool).
 */
export function threadsTable(rows: LoadRow[]): string {
  const measured = rows.filter((row) => row.twin !== undefined);
  if (measured.length === 0) return '';
  return [
    "the server's CPU µs a request by thread: main thread user, main thread system, other threads",
    '',
    '| scenario | service | twin |',
    '|---|---:|---:|',
    ...measured.map(({ scenario, result, twin }) => `| ${scenario} | ${threadsCell(result)} | ${threadsCell(twin!)} |`),
  ].join('\n');
}

/**
 * The anchor a run's ratios are read against: ping is measured before the scenarios and again after
 * them, and the faster of the two is the anchor, so a disturbance during one of them (a checkpoint, a
 * job) never makes the scenarios look better than they are. Both rows are printed.
 */
export function fasterAnchor(before: LoadRow, after: LoadRow): LoadRow {
  return after.result.rps > before.result.rps ? after : before;
}

/**
 * Which of the service's job runs overlapped the windows a row was read from (its scheduled work runs
 * whatever is measured, and the twin has none): a line per row that had any; empty when no row was
 * measured against a twin.
 */
export function jobRunsLines(rows: LoadRow[]): string {
  const measured = rows.filter((row) => row.jobRuns !== undefined);
  if (measured.length === 0) return '';
  const lines = measured.flatMap(({ scenario, jobRuns }) => {
    const { service, twin } = jobRuns!;
    if (service.length === 0 && twin.length === 0) return [];
    const during = (runs: string[]) => (runs.length === 0 ? 'none' : runs.join(', '));
    return [`- ${scenario}: during the service's window ${during(service)}; during the twin's ${during(twin)}`];
  });
  return lines.length === 0
    ? "the service's job runs: none overlapped a kept window"
    : ["the service's job runs that overlapped a kept window (pg-boss's table):", ...lines].join('\n');
}
