/**
 * Cost that does not grow with the data: the hot-paths and discovery benchmarks measure every read on
 * two seeds 10× apart (the larger with at least a million rows of each scenario's main table), each
 * on a scratch database of its own, and print each size's table, then one that sets them side by
 * side: the rate at each size and how much it dropped, and the CPU a request cost the server and
 * PostgreSQL together at each size and how much it grew. On a machine shared with other work the CPU
 * figure is the one to read: the two sizes are measured minutes apart, and the rate moves with
 * whatever else the machine runs meanwhile; the CPU a request costs moves much less.
 * BENCH_SIZES=<n>,<n> sets the sizes (default 100,000 and 1,000,000).
 */
import { kilobytes } from './allocations.ts';
import { thousands } from './instructions.ts';
import { type AllocatedRow, type CountedRow, isAllocated, isCounted, type LoadRow, type Row } from './report.ts';

export const defaultSeedSizes = [100_000, 1_000_000];

export function seedSizes(): number[] {
  const sizes = process.env.BENCH_SIZES?.split(',').map(Number) ?? defaultSeedSizes;
  if (sizes.length === 0 || sizes.some((size) => !Number.isInteger(size) || size < 1_000))
    throw new Error(`BENCH_SIZES must be whole numbers of at least 1,000, comma-separated: ${process.env.BENCH_SIZES}`);
  return sizes;
}

export const sizeLabel = (size: number) => size.toLocaleString('en-US');

const change = (from: number, to: number) => (from > 0 ? `${Math.round(((to - from) / from) * 100)} %` : '');

/** The section setting the sizes side by side; nothing when one size was measured (BENCH_SIZES=<n>). */
export const sizesSection = (sizes: number[], rowsBySize: Row[][]): string =>
  sizes.length < 2 ? '' : `\n### both sizes\n\n${sizesTable(sizes, rowsBySize)}`;

/**
 * Each scenario's row at every size, side by side (rows are matched by their place in the list: a
 * scenario's title may name something the seed chose, such as the busiest country). The drop is from
 * the first size to the last.
 */
export function sizesTable(sizes: number[], rowsBySize: Row[][]): string {
  if (rowsBySize[0]!.some(isCounted)) {
    const mainThread = (row: CountedRow) => row.counted.service.mainThread;
    return countedAtSizes(
      sizes,
      rowsBySize as CountedRow[][],
      'service instructions/request (main thread)',
      mainThread,
      thousands,
    );
  }
  if (rowsBySize[0]!.some(isAllocated)) {
    const bytes = (row: AllocatedRow) => row.allocated.service.bytesPerRequest;
    return countedAtSizes(sizes, rowsBySize as AllocatedRow[][], 'service kB/request', bytes, kilobytes);
  }
  return loadSizesTable(sizes, rowsBySize as LoadRow[][]);
}

function tableOf(header: string[], rows: string[][]): string {
  const lines = [
    `| ${header.join(' | ')} |`,
    `|---|${header
      .slice(1)
      .map(() => '---:')
      .join('|')}|`,
  ];
  for (const cells of rows) lines.push(`| ${cells.join(' | ')} |`);
  return lines.join('\n');
}

/**
 * Counted (BENCH_COUNT=instructions or allocations): the service's count a request at each size, and
 * the change; `what` names the count in the header.
 */
function countedAtSizes<R extends Row>(
  sizes: number[],
  rowsBySize: R[][],
  what: string,
  countOf: (row: R) => number,
  show: (count: number) => string,
): string {
  const labels = sizes.map(sizeLabel);
  const header = [
    'scenario',
    ...labels.map((label) => `${what} at ${label}`),
    `${labels[0]} → ${labels[labels.length - 1]}`,
  ];
  return tableOf(
    header,
    rowsBySize[0]!.map((row, index) => {
      const atSizes = rowsBySize.map((rows) => rows[index]!);
      return [
        row.scenario,
        ...atSizes.map((at) => show(countOf(at))),
        change(countOf(row), countOf(atSizes[atSizes.length - 1]!)),
      ];
    }),
  );
}

function loadSizesTable(sizes: number[], rowsBySize: LoadRow[][]): string {
  const first = rowsBySize[0]!;
  const last = rowsBySize[rowsBySize.length - 1]!;
  const labels = sizes.map(sizeLabel);
  const withTwin = first.some((row) => row.twin !== undefined);
  const header = [
    'scenario',
    ...labels.map((label) => `req/s at ${label}`),
    `rate, ${labels[0]} → ${labels[labels.length - 1]}`,
    ...labels.map((label) => `CPU µs/request (server + PostgreSQL) at ${label}`),
    'CPU a request',
    ...(withTwin ? labels.map((label) => `vs twin at ${label}`) : []),
  ];
  const serviceCpu = (row: LoadRow) => row.result.cpuPerRequest.server + row.result.cpuPerRequest.database;
  return tableOf(
    header,
    first.map((row, index) => {
      const atSizes = rowsBySize.map((rows) => rows[index]!);
      const lastRow = last[index]!;
      return [
        row.scenario,
        ...atSizes.map((at) => String(Math.round(at.result.rps))),
        change(row.result.rps, lastRow.result.rps),
        ...atSizes.map((at) => String(Math.round(serviceCpu(at)))),
        change(serviceCpu(row), serviceCpu(lastRow)),
        ...(withTwin
          ? atSizes.map((at) => (at.twin === undefined ? '' : (at.result.rps / at.twin.rps).toFixed(2)))
          : []),
      ];
    }),
  );
}
