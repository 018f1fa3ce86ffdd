/**
 * The processes a benchmark starts end with it: a run that fails (a server that never answers, a
 * count that meets an error) or is stopped (Ctrl-C, SIGTERM) exits without stopping them, and a
 * server left under callgrind kept a core busy for an hour (session 53).
 */
import type { ChildProcess } from 'node:child_process';

const running = new Set<ChildProcess>();
const killAll = () => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
};
process.once('exit', killAll);
// A signal ends the process without its 'exit' event: the children are killed, then it exits as the signal would.
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    killAll();
    process.exit(code);
  });
}

/** `child`, killed when the benchmark's process exits if it still runs then. */
export function endsWithBenchmark<C extends ChildProcess>(child: C): C {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}
