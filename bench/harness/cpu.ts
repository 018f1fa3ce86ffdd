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

/** CPU milliseconds used so far by each server under test and each PostgreSQL process, by pid. */
export interface CpuSnapshot {
  server: Map<string, number>;
  database: Map<string, number>;
}

function processCpuMs(pid: string): { comm: string; cpuMs: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    // After the name: state is field 3 of stat(5); utime and stime are fields 14 and 15.
    return { comm, cpuMs: (Number(fields[11]) + Number(fields[12])) * tickMs };
  } catch {
    return null; // the process ended meanwhile
  }
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
    else if (isServer(pid)) snapshot.server.set(pid, usage.cpuMs);
  }
  return snapshot;
}

/**
 * The CPU milliseconds spent between two snapshots, by the servers and by PostgreSQL: each process
 * alive at the end counts what it used since the first (all of it if it started since). A process
 * that ended meanwhile (another client's PostgreSQL backend on a shared machine) is not counted: it
 * would take its whole life's CPU away from the sum.
 */
export function cpuSpent(before: CpuSnapshot, after: CpuSnapshot): { server: number; database: number } {
  const spent = (from: Map<string, number>, to: Map<string, number>) => {
    let total = 0;
    for (const [pid, ms] of to) total += ms - (from.get(pid) ?? 0);
    return total;
  };
  return { server: spent(before.server, after.server), database: spent(before.database, after.database) };
}
