/**
 * BENCH_COUNT=instructions: the scenarios measured by the instructions the server runs for a request,
 * counted by valgrind's callgrind, instead of by their rate. A count does not move with what else the
 * machine does (a rate on this shared machine moves by a quarter between runs minutes apart), so it
 * tells changes of the per-request work that a rate cannot.
 *
 * The service and the twin each run under callgrind (about fifty times slower: a start takes minutes).
 * For each scenario, after a warm-up, the counters are zeroed, `requestsCounted` requests are sent one
 * after the other (one connection: the same work for each, never two in one turn of the event loop;
 * `BENCH_COUNT_CONNECTIONS=32` overlaps them as the loaded runs do),
 * and the counters are read by thread; that is done `takes` times and the take whose main thread ran
 * the fewest instructions is kept (a major collection or a job run in a take only adds). What runs by
 * the clock (the job queue's polling, the maintenance flag's reading, timers) is counted too, and
 * under callgrind a take lasts seconds: since 2026-12-01 the process is also counted idle, for as
 * long as its median take lasted, and each take is charged only what it ran beyond that idle rate
 * (on ping, 4-7 % of a take). What still moves a count is what does not run steadily (a job run, a
 * collection): on ping the takes still spread by a fifth; the spread is printed with each count.
 * The main thread is the event loop (the service's own work, the pg client, the HTTP parser); the
 * others are V8's compiler and collector helpers and libuv's pool, printed as "all threads".
 * PostgreSQL's work is not counted: the twin runs the very statements the service sent.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  countFunctionsOf,
  type FunctionCounts,
  functionsCounted,
  instructionAddressOptions,
  perfMapNodeFlags,
} from './function-counts.ts';
import { runLoadWorker } from './load.ts';

const run = promisify(execFile);

export const countingInstructions = (): boolean => process.env.BENCH_COUNT === 'instructions';

const warmUpRequests = 1000;
const requestsCounted = 1000;
const takes = 3;

/** Instructions a request, on the main thread and on all of the process's threads (the fewest take's). */
export interface InstructionCount {
  mainThread: number;
  allThreads: number;
  /** The main thread's most instructions a request of the takes over its fewest, less one. */
  spread: number;
  /** The main thread's instructions a request taken off as the clock's work (its idle rate over the kept take). */
  idle: number;
  /** By function, from one more take (BENCH_COUNT_FUNCTIONS, function-counts.ts). */
  functions?: FunctionCounts;
}

/** A process run under callgrind, and how to zero and read its counters. */
export interface Callgrind {
  /** The command to spawn in place of `command`. */
  command: string[];
  /** Zeroes the counters, then reads them by thread after `work`. */
  count(pid: number, work: () => Promise<void>): Promise<number[]>;
  /** Zeroes the counters, then writes them to a file after `work`, by instruction; returns the file. */
  dump(pid: number, work: () => Promise<void>): Promise<string>;
  /** Removes callgrind's files, once the process has exited. */
  remove(): void;
}

/**
 * `command` under callgrind. callgrind_control reaches the process through vgdb's pipes, whose names
 * hold the user and host names of the environment: it is given the same as the process (`env`).
 */
export function underCallgrind(command: string[], env: Record<string, string | undefined>): Callgrind {
  const folder = mkdtempSync(join(tmpdir(), 'tms-callgrind-'));
  const prefix = join(folder, 'vgdb');
  const namesEnv = Object.fromEntries(
    ['LOGNAME', 'USER', 'HOST', 'HOSTNAME'].flatMap((name) => (env[name] === undefined ? [] : [[name, env[name]!]])),
  );
  const control = (pid: number, action: string) =>
    run('callgrind_control', [`--vgdb-prefix=${prefix}`, action, String(pid)], {
      env: { PATH: process.env.PATH ?? '', ...namesEnv },
    });
  // Counting by function: instructions written by address, and V8's map of its compiled code.
  const byFunction = functionsCounted() > 0;
  const [program, ...args] = command;
  return {
    command: [
      'valgrind',
      '--tool=callgrind',
      '--quiet',
      `--callgrind-out-file=${join(folder, 'callgrind.%p.out')}`,
      `--vgdb-prefix=${prefix}`,
      ...(byFunction ? instructionAddressOptions : []),
      program!,
      ...(byFunction ? perfMapNodeFlags(folder) : []),
      ...args,
    ],
    count: async (pid, work) => {
      await control(pid, '--zero');
      await work();
      const { stdout } = await control(pid, '-e');
      return [...stdout.matchAll(/^\s*Th\s*(\d+)\s+([\d,]+)/gm)].map((match) => Number(match[2]!.replaceAll(',', '')));
    },
    dump: async (pid, work) => {
      await control(pid, '--zero');
      await work();
      const before = new Set(readdirSync(folder));
      await control(pid, '--dump');
      const written = readdirSync(folder).find((file) => file.startsWith(`callgrind.${pid}.`) && !before.has(file));
      if (written === undefined) throw new Error(`callgrind wrote no dump for ${pid} in ${folder}`);
      return join(folder, written);
    },
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}

const countedRequestTimeoutSeconds = 300;

/**
 * The connections a count sends its requests on (`BENCH_COUNT_CONNECTIONS`, default one: a request
 * after the other), its warm-up's and BENCH_COUNT=allocations' too. With the loaded runs' 32, requests overlap as under load: what the service does
 * more when many wait at once (a pool's queue, more live objects at each collection) is counted too.
 */
function countedConnections(): number {
  const connections = Number(process.env.BENCH_COUNT_CONNECTIONS ?? 1);
  if (!Number.isInteger(connections) || connections < 1) {
    throw new Error(
      `BENCH_COUNT_CONNECTIONS must be a whole number of 1 or more, not ${process.env.BENCH_COUNT_CONNECTIONS}`,
    );
  }
  return connections;
}

/**
 * `amount` requests to `url`, on the count's connections (one unless set); throws when more than `tolerated` answers are not 2xx.
 * The counted requests tolerate none; the unmeasured ones before a count a tenth (`warmUp`): under
 * callgrind on a busy machine, while V8 compiles the code, a request can take seconds and a few have
 * failed (2 of ping's 1,000, session 53).
 */
export async function send(url: string, amount: number, headers: Record<string, string>, tolerated = 0) {
  // No request is timed here, and under callgrind one can take seconds (a collection, a job run
  // beside it): autocannon's own 10 s would count it as a failure (session 54: a count died on one).
  const options = { url, connections: countedConnections(), amount, headers, timeout: countedRequestTimeoutSeconds };
  const { bad, badKinds } = await runLoadWorker(options);
  if (bad > tolerated) throw new Error(`${bad} of ${amount} requests to ${url} failed (${badKinds})`);
}

export const warmUp = (url: string, amount: number, headers: Record<string, string>) =>
  send(url, amount, headers, amount / 10);

/** The instructions a request to `url` costs the process `pid` under `callgrind` (see the header). */
export async function countPerRequest(
  callgrind: Callgrind,
  pid: number,
  url: string,
  headers: Record<string, string> = {},
  byFunction = functionsCounted() > 0,
): Promise<InstructionCount> {
  await warmUp(url, warmUpRequests, headers);
  const taken: { main: number; all: number; ms: number }[] = [];
  for (let take = 0; take < takes; take += 1) {
    const started = performance.now();
    const threads = await callgrind.count(pid, () => send(url, requestsCounted, headers));
    taken.push({ ...totals(threads), ms: performance.now() - started });
  }
  // The clock's work: the process counted idle for as long as its median take lasted.
  const idleMs = [...taken].sort((a, b) => a.ms - b.ms)[Math.floor(taken.length / 2)]!.ms;
  const idle = totals(await callgrind.count(pid, () => new Promise((resolve) => setTimeout(resolve, idleMs))));
  const counts = taken.map(({ main, all, ms }) => {
    const idleMain = (idle.main * ms) / idleMs;
    return {
      mainThread: Math.max(0, main - idleMain) / requestsCounted,
      allThreads: Math.max(0, all - (idle.all * ms) / idleMs) / requestsCounted,
      idle: idleMain / requestsCounted,
    };
  });
  const [fewest, ...others] = counts.sort((a, b) => a.mainThread - b.mainThread);
  const most = others[others.length - 1] ?? fewest!;
  const functions = byFunction
    ? countFunctionsOf(await callgrind.dump(pid, () => send(url, requestsCounted, headers)), pid, requestsCounted)
    : undefined;
  return { ...fewest!, spread: most.mainThread / fewest!.mainThread - 1, ...(functions ? { functions } : {}) };
}

/** A count by thread (callgrind's order: the main thread first) as the main thread's and all threads'. */
const totals = ([main = 0, ...others]: number[]) => ({
  main,
  all: main + others.reduce((sum, count) => sum + count, 0),
});

/** A count in thousands, as the tables print it: `1,367 k`. */
export const thousands = (count: number) => `${Math.round(count / 1000).toLocaleString('en-US')} k`;

/** The table of a counted run: each scenario's instructions a request, the service's and its twin's. */
export function instructionsTable(
  rows: { scenario: string; counted: { service: InstructionCount; twin: InstructionCount | null } }[],
): string {
  const lines = [
    '| scenario | service instructions/request, main thread (spread of takes; the idle rate taken off) | all threads | twin, main thread (spread; idle) | all threads | twin / service (main thread) |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  const mainCell = ({ mainThread, spread, idle }: InstructionCount) =>
    `${thousands(mainThread)} (${Math.round(spread * 100)} %; ${thousands(idle)})`;
  for (const { scenario, counted } of rows) {
    const { service, twin } = counted;
    const twinCells =
      twin === null
        ? ['', '', '']
        : [mainCell(twin), thousands(twin.allThreads), (twin.mainThread / service.mainThread).toFixed(2)];
    lines.push(`| ${scenario} | ${mainCell(service)} | ${thousands(service.allThreads)} | ${twinCells.join(' | ')} |`);
  }
  return lines.join('\n');
}
