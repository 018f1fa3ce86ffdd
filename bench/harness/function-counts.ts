/**
 * BENCH_COUNT_FUNCTIONS=N, with BENCH_COUNT=instructions: each scenario's count split by function, the
 * code V8 compiled from JavaScript named too. callgrind names the functions of the binaries it reads
 * (V8's builtins and runtime, Node's C++, libuv, libc) but not the code V8 compiles at run time: that
 * runs at addresses no binary holds, and callgrind charges code reached by a jump (V8 enters a
 * function through its call builtin, then jumps) to the function it jumped from. So the processes run
 * with `--perf-basic-prof` (V8 writes each compiled function's address range and name to
 * perf-<pid>.map, beside callgrind's files; code space is not compacted, so code stays where it is)
 * and callgrind writes each instruction's address (`--dump-instr=yes`): every instruction's count is charged by its address, to the JavaScript function
 * whose code holds it, else to the function callgrind names. A call's inclusive count is charged to
 * the function holding the call site, which gives each JavaScript function's inclusive count (what it
 * ran and everything it called, builtins included), its calls within itself not counted twice (a
 * function that calls itself through another counts the inner call twice).
 *
 * After a scenario's takes, one more take of the same requests is dumped and read (function-counts
 * are the whole process's, every thread). A function inlined by the optimizing compiler is part of its
 * caller. A lever the tables show is counted alone before a change is kept (docs/benchmarks.md,
 * Session 53: a timer they seemed to charge 62-109 k a request saved nothing measurable).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { shortPlace } from './places.ts';

/** How many functions a scenario's tables name (0: functions not counted). */
export const functionsCounted = (): number => Math.max(0, Math.trunc(Number(process.env.BENCH_COUNT_FUNCTIONS))) || 0;

/**
 * What a process must run with for its functions to be counted: node's flags (V8's map of its compiled
 * code, written into `folder`, beside callgrind's dumps; code never moved), and callgrind's options.
 */
export const perfMapNodeFlags = (folder: string) => [
  '--perf-basic-prof',
  `--perf-basic-prof-path=${folder}`,
  '--no-compact-code-space',
  // The perf map turns V8's log on, written to the working directory unless told where.
  `--logfile=${join(folder, 'v8.log')}`,
];
export const instructionAddressOptions = ['--dump-instr=yes', '--dump-line=no'];

/** A process's counts by function, a request. */
export interface FunctionCounts {
  /** Instructions each function ran itself. */
  self: Map<string, number>;
  /** Instructions of each JavaScript function with everything it called. */
  inclusive: Map<string, number>;
  /** `self` summed by where the code comes from (a package, a folder of the checkout, V8, Node, libc). */
  byOrigin: Map<string, number>;
}

interface CodeRange {
  start: number;
  end: number;
  name: string;
}

/** V8's perf map: `start size name` a line, hexadecimal; a later line for the same start replaces the earlier. */
export function parsePerfMap(text: string): CodeRange[] {
  const byStart = new Map<number, CodeRange>();
  for (const line of text.split('\n')) {
    const match = /^([0-9a-f]+) ([0-9a-f]+) (.+)$/.exec(line);
    if (match === null) continue;
    const start = Number.parseInt(match[1]!, 16);
    byStart.set(start, { start, end: start + Number.parseInt(match[2]!, 16), name: match[3]! });
  }
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}

/** The code range holding `address` (the one starting last at or before it), or undefined. */
function rangeAt(ranges: CodeRange[], address: number): CodeRange | undefined {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (ranges[middle]!.start <= address) low = middle + 1;
    else high = middle - 1;
  }
  const range = ranges[high];
  return range !== undefined && address < range.end ? range : undefined;
}

/**
 * A perf map's name as the tables print it: `JS:*feedPage file:///…/src/x.ts:40:10` → `feedPage
 * src/x.ts:40` (the compiler's tier mark and the column dropped, so one function's tiers add up).
 */
export function javaScriptName(mapName: string): string | null {
  if (!mapName.startsWith('JS:')) return null;
  const body = mapName.slice(3).replace(/^[~^+*']+/, '');
  // The name may hold spaces (`get total`); the place is the last word, its line and column at the end.
  const space = body.lastIndexOf(' ');
  const name = space < 0 ? '' : body.slice(0, space);
  const place = space < 0 ? body : body.slice(space + 1);
  const located = /^(.*?):(\d+):\d+$/.exec(place);
  return `${name || '(anonymous)'} ${shortPlace(located?.[1] ?? place)}${located ? `:${located[2]}` : ''}`;
}

/** A native function's name as the tables print it: no argument list, no recursion mark (`'2`). */
const nativeName = (name: string) => {
  const plain = name.replace(/'\d+$/, '').replaceAll('(anonymous namespace)::', '');
  const arguments_ = plain.indexOf('(');
  return (arguments_ > 0 ? plain.slice(0, arguments_) : plain).slice(0, 120);
};

/** Where a function's code comes from, for the summary by origin. */
export function originOf(name: string, object: string): string {
  const place = / (\S+):\d+$/.exec(name)?.[1];
  if (place !== undefined) {
    if (place.startsWith('node:')) return 'Node (JavaScript)';
    const scoped = /^(@[^/]+\/[^/]+)\//.exec(place) ?? /^([^/]+)\//.exec(place);
    if (place.startsWith('src/')) return place.split('/').slice(0, 3).join('/');
    if (place.startsWith('bench/')) return 'bench';
    return scoped?.[1] ?? place;
  }
  // Native names may begin with their return type (`bool v8::internal::…`).
  if (/^(Builtins_|Builtin:|BytecodeHandler:)/.test(name)) return 'V8 builtins';
  if (name.startsWith('RegExp:')) return 'V8 regular expressions';
  if (/\b(v8|cppgc|heap::base)::/.test(name)) return 'V8 (C++)';
  if (/\bnode::/.test(name)) return 'Node (C++)';
  if (/\bicu_\d+::/.test(name)) return 'ICU';
  if (/^(EVP_|ASN1_|asn1_|CRYPTO_|ossl_|OPENSSL_|BN_|bn_|SHA\d|sha\d|EC_|ec_|RSA_|X509)/.test(name)) return 'OpenSSL';
  if (/^uv_/.test(name)) return 'libuv';
  if (/^llhttp/.test(name)) return 'llhttp';
  if (/^[A-Z][a-z]+:/.test(name)) return 'V8 stubs';
  if (/^0x[0-9a-f]+$/.test(name)) return 'compiled code, unnamed';
  if (/libc\.so|libc-/.test(object)) return 'libc';
  if (/\/node$/.test(object)) return 'Node binary, other';
  return object.split('/').pop() || 'other';
}

/**
 * A callgrind dump (written with instruction addresses, no lines) read against the process's perf map:
 * counts by function, divided by `requests`.
 */
export function countFunctions(dump: string, perfMap: string, requests: number): FunctionCounts {
  const ranges = parsePerfMap(perfMap);
  const names = new Map<string, string>();
  const objects = new Map<string, string>();
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const objectOf = new Map<string, string>();
  const add = (into: Map<string, number>, key: string, amount: number) => into.set(key, (into.get(key) ?? 0) + amount);

  /** `(12) name` defines id 12; `(12)` refers to it. */
  const named = (field: string, table: Map<string, string>) => {
    const match = /^\((\d+)\)(?: (.*))?$/.exec(field);
    if (match === null) return field;
    if (match[2] !== undefined) table.set(match[1]!, match[2]);
    return table.get(match[1]!) ?? field;
  };
  // The name V8's map gives the code at an address (a JavaScript function's as the tables print it), or null.
  const javaScriptAt = (address: number): string | null => {
    const range = rangeAt(ranges, address);
    return range === undefined ? null : (javaScriptName(range.name) ?? range.name);
  };

  let object = '';
  let functionName = '';
  let callee = '';
  let address = 0;
  let inCall = false;
  for (const line of dump.split('\n')) {
    if (line.startsWith('ob=')) object = named(line.slice(3), objects);
    else if (line.startsWith('cob=')) named(line.slice(4), objects);
    else if (line.startsWith('fn=')) functionName = named(line.slice(3), names);
    else if (line.startsWith('cfn=')) callee = named(line.slice(4), names);
    else if (line.startsWith('calls=')) inCall = true;
    else if (/^[0-9+\-*]/.test(line)) {
      const [position, count] = line.split(' ');
      // An absolute position is hexadecimal (0x…); a relative one (+n, -n) decimal, unless written 0x….
      if (position!.startsWith('0x')) address = Number.parseInt(position!, 16);
      else if (position!.startsWith('+')) address += Number(position!.slice(1));
      else if (position!.startsWith('-')) address -= Number(position!.slice(1));
      const instructions = Number(count ?? 0);
      const here = javaScriptAt(address) ?? nativeName(functionName);
      if (!objectOf.has(here)) objectOf.set(here, object);
      if (inCall) {
        // A call: its inclusive count belongs to the function holding the call site, unless it calls
        // itself (its own code, already counted as its own).
        const calleeAddress = /^0x[0-9a-f]+/.exec(callee)?.[0];
        const called = (calleeAddress && javaScriptAt(Number.parseInt(calleeAddress, 16))) || nativeName(callee);
        if (called !== here) add(inclusive, here, instructions);
        inCall = false;
      } else {
        add(self, here, instructions);
        add(inclusive, here, instructions);
      }
    }
  }
  const perRequest = (counts: Map<string, number>) =>
    new Map([...counts].map(([name, count]) => [name, count / requests] as const).sort((a, b) => b[1] - a[1]));
  const byOrigin = new Map<string, number>();
  for (const [name, count] of self) add(byOrigin, originOf(name, objectOf.get(name) ?? ''), count);
  const isJavaScript = (name: string) => / \S+:\d+$/.test(name);
  return {
    self: perRequest(self),
    inclusive: perRequest(new Map([...inclusive].filter(([name]) => isJavaScript(name)))),
    byOrigin: perRequest(byOrigin),
  };
}

/** The counts of a dump file against the perf map the process `pid` wrote beside it. */
export const countFunctionsOf = (dumpFile: string, pid: number, requests: number): FunctionCounts =>
  countFunctions(
    readFileSync(dumpFile, 'utf8'),
    readFileSync(join(dirname(dumpFile), `perf-${pid}.map`), 'utf8'),
    requests,
  );

const thousandsCell = (count: number | undefined) =>
  count === undefined ? '' : `${(count / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} k`;

/** A scenario's tables: by origin, the service's largest functions by their own count, and by inclusive count. */
export function functionsTables(
  scenario: string,
  service: FunctionCounts,
  twin: FunctionCounts | null,
  shown: number,
): string {
  const table = (title: string, counts: Map<string, number>, twinCounts: Map<string, number> | undefined) => [
    `| ${title} | service | twin |`,
    '|---|---:|---:|',
    ...[...counts]
      .slice(0, shown)
      .map(([name, count]) => `| \`${name}\` | ${thousandsCell(count)} | ${thousandsCell(twinCounts?.get(name))} |`),
  ];
  return [
    `#### ${scenario}: instructions a request by function (all threads)`,
    '',
    ...table('where the code comes from (own instructions)', service.byOrigin, twin?.byOrigin),
    '',
    ...table('function (own instructions)', service.self, twin?.self),
    '',
    ...table('JavaScript function (with what it calls)', service.inclusive, twin?.inclusive),
  ].join('\n');
}
