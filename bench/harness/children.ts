/**
 * The processes a benchmark starts end with it: a run that fails (a server that never answers, a
 * count that meets an error) exits without stopping them, and a server left under callgrind kept a
 * core busy for an hour (session 53).
 */
import type { ChildProcess } from 'node:child_process';

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** `child`, killed when the benchmark's process exits if it still runs then. */
export function endsWithBenchmark<C extends ChildProcess>(child: C): C {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}
