/**
 * BENCH_COUNT=allocations: the scenarios measured by what a request allocates on V8's heap, the
 * service's and its twin's, instead of by their rate. Every object a request makes is work for the
 * collector and memory no cache holds (on two cores shared with PostgreSQL and the load generator, the
 * others' work too: docs/benchmarks.md, Session 48); the twin shows the floor (pg's rows and the
 * bytes). Like an instruction count, an allocation count does not move with what else the machine
 * does.
 *
 * Each process is started with allocation-sampler.ts. For each scenario, after a warm-up, the sampler
 * is started, `requestsSampled` requests are sent one after the other (or on `BENCH_COUNT_CONNECTIONS`), and the profile is read: V8
 * samples one object in about every kilobyte allocated (collected ones included) and weighs each
 * sample, so the total a request is an estimate within a few per cent; the sites are the functions
 * that made the objects (named by the line each function starts at; an inlined function's objects are
 * its caller's), the largest printed with the service's figure. Everything the process allocates
 * while it samples is counted, its timers and the job queue's polling too (a few hundred bytes a
 * request at most). Buffers' bytes (outside V8's heap) are not counted.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { send, warmUp } from './instructions.ts';
import { shortPlace } from './places.ts';

export const countingAllocations = (): boolean => process.env.BENCH_COUNT === 'allocations';

const warmUpRequests = 1000;
const requestsSampled = 2000;
/** How many of the service's allocation sites a row names (BENCH_ALLOCATION_SITES, to look further). */
const sitesShown = Math.max(0, Math.trunc(Number(process.env.BENCH_ALLOCATION_SITES))) || 4;

/** What a request allocates: in all, and by site (function, file and line), largest first. */
export interface AllocationCount {
  bytesPerRequest: number;
  sites: { site: string; bytesPerRequest: number }[];
}

/** A process started with the sampler, and how to sample it. */
export interface AllocationSampler {
  /** Node's flags and the environment that load the sampler. */
  flags: string[];
  env: Record<string, string>;
  /** The profile of what the process allocated during `work`. */
  sample(pid: number, work: () => Promise<void>): Promise<HeapProfile>;
  /** Removes the sampler's files, once the process has exited. */
  remove(): void;
}

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}
interface HeapProfile {
  head: ProfileNode;
}

/** Waits for the sampler to write `file`; throws what it wrote instead when it failed. */
async function appeared(file: string, failed: string): Promise<void> {
  for (let waited = 0; waited < 30_000; waited += 20) {
    if (existsSync(file)) return;
    if (existsSync(failed)) throw new Error(`the allocation sampler failed: ${readFileSync(failed, 'utf8')}`);
    await sleep(20);
  }
  throw new Error(`the allocation sampler did not write ${file} within 30 s`);
}

export function allocationSampler(): AllocationSampler {
  const folder = mkdtempSync(join(tmpdir(), 'tms-allocations-'));
  const profile = join(folder, 'profile.json');
  const started = `${profile}.started`;
  const failed = `${profile}.failed`;
  return {
    flags: ['--import', fileURLToPath(new URL('./allocation-sampler.ts', import.meta.url))],
    env: { BENCH_ALLOCATION_PROFILE: profile },
    sample: async (pid, work) => {
      for (const file of [started, profile, failed]) rmSync(file, { force: true });
      process.kill(pid, 'SIGUSR2');
      await appeared(started, failed);
      try {
        await work();
      } finally {
        // Stopped whatever the work did, so the next sample starts sampling rather than stopping it.
        process.kill(pid, 'SIGUSR2');
        await appeared(profile, failed);
      }
      return JSON.parse(readFileSync(profile, 'utf8')) as HeapProfile;
    },
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}

/** The bytes of a profile by site (self sizes: where each object was made), largest first. */
function bySite(profile: HeapProfile): Map<string, number> {
  const sites = new Map<string, number>();
  const visit = (node: ProfileNode) => {
    if (node.selfSize > 0) {
      const { functionName, url, lineNumber } = node.callFrame;
      const site = `${functionName || '(anonymous)'} ${shortPlace(url)}:${lineNumber + 1}`;
      sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
    }
    for (const child of node.children) visit(child);
  };
  visit(profile.head);
  return new Map([...sites].sort((a, b) => b[1] - a[1]));
}

/** What a request to `url` allocates in the process `pid` started with `sampler` (see the header). */
export async function allocationsPerRequest(
  sampler: AllocationSampler,
  pid: number,
  url: string,
  headers: Record<string, string> = {},
): Promise<AllocationCount> {
  await warmUp(url, warmUpRequests, headers);
  const profile = await sampler.sample(pid, () => send(url, requestsSampled, headers));
  const sites = [...bySite(profile)].map(([site, bytes]) => ({ site, bytesPerRequest: bytes / requestsSampled }));
  return { bytesPerRequest: sites.reduce((sum, { bytesPerRequest }) => sum + bytesPerRequest, 0), sites };
}

export const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

/** The table of such a run: each scenario's kilobytes a request, the service's and its twin's, and the service's largest sites. */
export function allocationsTable(
  rows: { scenario: string; allocated: { service: AllocationCount; twin: AllocationCount | null } }[],
): string {
  const lines = [
    "| scenario | service kB/request | twin kB/request | service / twin | the service's largest sites (kB/request; the twin's at the same site) |",
    '|---|---:|---:|---:|---|',
  ];
  for (const { scenario, allocated } of rows) {
    const { service, twin } = allocated;
    // Beside each site, the twin's bytes at the same site (pg's, Node's), when it has them.
    const inTwin = new Map(twin?.sites.map(({ site, bytesPerRequest }) => [site, bytesPerRequest]));
    const sites = service.sites
      .slice(0, sitesShown)
      .map(({ site, bytesPerRequest }) => {
        const twinBytes = inTwin.get(site);
        const twinCell = twinBytes === undefined ? '' : ` (twin ${(twinBytes / 1024).toFixed(1)})`;
        return `\`${site}\` ${(bytesPerRequest / 1024).toFixed(1)}${twinCell}`;
      })
      .join('; ');
    const twinCells =
      twin === null
        ? ['', '']
        : [kilobytes(twin.bytesPerRequest), (service.bytesPerRequest / twin.bytesPerRequest).toFixed(2)];
    lines.push(`| ${scenario} | ${kilobytes(service.bytesPerRequest)} | ${twinCells.join(' | ')} | ${sites} |`);
  }
  return lines.join('\n');
}
