/** The benchmark's Markdown: where and when it ran, then one row per scenario with its ratio to ping. */
import { cpus, loadavg, totalmem } from 'node:os';
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

export interface Row {
  scenario: string;
  result: LoadResult;
}

export function loadTable(rows: Row[], ping: LoadResult): string {
  const lines = [
    '| scenario | req/s | p50 (ms) | p99 (ms) | vs ping | CPU µs/request: server, PostgreSQL, load | bad answers |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { scenario, result } of rows) {
    const cpu = result.cpuPerRequest;
    const cpuCell = [cpu.server, cpu.database, cpu.load].map((us) => Math.round(us)).join(', ');
    lines.push(
      `| ${scenario} | ${Math.round(result.rps)} | ${result.p50} | ${result.p99} | ${(result.rps / ping.rps).toFixed(2)} | ${cpuCell} | ${result.bad} |`,
    );
  }
  return lines.join('\n');
}

/**
 * The anchor a run's ratios are read against: ping is measured before the scenarios and again after
 * them, and the faster of the two is the anchor, so a disturbance during one of them (a checkpoint, a
 * job) never makes the scenarios look better than they are. Both rows are printed.
 */
export function fasterAnchor(before: Row, after: Row): Row {
  return after.result.rps > before.result.rps ? after : before;
}
