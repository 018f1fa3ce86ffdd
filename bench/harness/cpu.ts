/**
 * Where a scenario's CPU goes, per request: the server under test (every process running
 * src/main.ts, or the scenario's floor twin, twin-server.ts: one of them is loaded at a time), PostgreSQL (every `postgres` process of the machine; none on PGlite) and the load
 * generator (which measures itself). On two cores shared by all three, a route's rate is what their
 * sum allows, so this tells which of them to make cheaper. Read from /proc (Linux); elsewhere zeros.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The checkout's directory: the server and the twin are started there (server.ts, twin.ts). */
export const checkoutDir = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

const tickMs = 10; // USER_HZ is 100 on Linux

/**
 * A server's CPU milliseconds by thread: its main thread (the event loop: the service's own work, the
 * pg client, the HTTP parser) in user and in system time (the kernel: the sockets), and all its
 * other threads together (V8's compiler and collector helpers, libuv's pool, where pino's writes go).
 */
export interface ThreadsCpu {
  mainUser: number;
  mainSystem: number;
  otherThreads: number;
}

/** CPU milliseconds used so far by each server under test and each PostgreSQL process, by pid. */
export interface CpuSnapshot {
  server: Map<string, ThreadsCpu>;
  database: Map<string, number>;
}

/** A process's (or a thread's) name, user and system milliseconds, from its stat file. */
function statCpu(path: string): { comm: string; userMs: number; systemMs: number } | null {
  try {
    const stat = readFileSync(path, 'utf8');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    // After the name: state is field 3 of stat(5); utime and stime are fields 14 and 15.
    return { comm, userMs: Number(fields[11]) * tickMs, systemMs: Number(fields[12]) * tickMs };
  } catch {
    return null; // the process (or thread) ended meanwhile
  }
}

function processCpuMs(pid: string): { comm: string; cpuMs: number } | null {
  const usage = statCpu(`/proc/${pid}/stat`);
  return usage && { comm: usage.comm, cpuMs: usage.userMs + usage.systemMs };
}

/**
 * A server's CPU by thread: the process's own total (which keeps the threads that ended) less its
 * main thread's is its other threads'. The main thread is read first, so a tick that lands between
 * the two reads goes to the other threads rather than below zero; null once the process has ended.
 */
export function threadsCpu(pid: string): ThreadsCpu | null {
  const main = statCpu(`/proc/${pid}/task/${pid}/stat`);
  const total = processCpuMs(pid);
  if (main === null || total === null) return null;
  return {
    mainUser: main.userMs,
    mainSystem: main.systemMs,
    otherThreads: total.cpuMs - main.userMs - main.systemMs,
  };
}

/** CPU milliseconds a process has used so far (0 once it has ended). */
export const cpuMsOf = (pid: number): number => processCpuMs(String(pid))?.cpuMs ?? 0;

/**
 * A server of this checkout: on a machine shared with other checkouts running their own servers, only
 * the processes started from this one's directory count.
 */
const isServer = (pid: string) => {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const ours = args.includes('src/main.ts') || args.some((arg) => arg.endsWith('twin-server.ts'));
    return ours && readlinkSync(`/proc/${pid}/cwd`) === checkoutDir;
  } catch {
    return false;
  }
};

/** CPU milliseconds used so far by the servers under test and by PostgreSQL, process by process. */
export function cpuSnapshot(): CpuSnapshot {
  const snapshot: CpuSnapshot = { server: new Map(), database: new Map() };
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return snapshot;
  }
  for (const pid of pids) {
    const usage = processCpuMs(pid);
    if (usage === null) continue;
    if (usage.comm === 'postgres') snapshot.database.set(pid, usage.cpuMs);
    else if (isServer(pid)) {
      const threads = threadsCpu(pid);
      if (threads !== null) snapshot.server.set(pid, threads);
    }
  }
  return snapshot;
}

/**
 * The CPU milliseconds spent between two snapshots, by the servers and by PostgreSQL: each process
 * alive at the end counts what it used since the first (all of it if it started since). A process
 * that ended meanwhile (another client's PostgreSQL backend on a shared machine) is not counted: it
 * would take its whole life's CPU away from the sum.
 */
export function cpuSpent(
  before: CpuSnapshot,
  after: CpuSnapshot,
): { server: number; serverThreads: ThreadsCpu; database: number } {
  const spent = (from: Map<string, number>, to: Map<string, number>) => {
    let total = 0;
    for (const [pid, ms] of to) total += ms - (from.get(pid) ?? 0);
    return total;
  };
  const part = (key: keyof ThreadsCpu) => {
    const of = (snapshot: CpuSnapshot) => new Map([...snapshot.server].map(([pid, cpu]) => [pid, cpu[key]]));
    return spent(of(before), of(after));
  };
  const serverThreads = {
    mainUser: part('mainUser'),
    mainSystem: part('mainSystem'),
    otherThreads: part('otherThreads'),
  };
  return {
    server: serverThreads.mainUser + serverThreads.mainSystem + serverThreads.otherThreads,
    serverThreads,
    database: spent(before.database, after.database),
  };
}
