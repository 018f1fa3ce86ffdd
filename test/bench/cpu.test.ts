/**
 * The benchmarks' split of a server's CPU by thread (bench/harness/cpu.ts): a process that spends a
 * known CPU time on its main thread and another on a worker thread is read from /proc as that (the
 * child measures its own threads' CPU, process.threadCpuUsage, so the figures do not depend on how
 * busy the machine is); and what two snapshots give is what each server spent between them.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { type CpuSnapshot, cpuSpent, threadsCpu } from '../../bench/harness/cpu.ts';

// Busy until this thread has used `ms` of CPU (reading its usage is a system call: system time too).
const burn =
  'const burn = (ms) => { for (let u = process.threadCpuUsage(); u.user + u.system < ms * 1000; u = process.threadCpuUsage()); };';
const childScript = `
  const { Worker } = require('node:worker_threads');
  ${burn}
  const worker = new Worker(${JSON.stringify(`${burn} burn(400);`)}, { eval: true });
  worker.on('exit', () => { burn(300); process.stdout.write('done'); process.stdin.resume(); });
`;

describe("a server's CPU by thread", { skip: process.platform !== 'linux' }, () => {
  it("charges the main thread's work to it and a worker's to the other threads", { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, ['-e', childScript], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const first = await Promise.race([
        once(child.stdout, 'data').then(() => 'burnt'),
        once(child, 'exit').then(([code]) => `ended (${code}) before it had burnt its CPU`),
      ]);
      assert.equal(first, 'burnt');
      const cpu = threadsCpu(String(child.pid));
      assert.ok(cpu !== null);
      // /proc counts in hundredths of a second, each of user and system time rounded down.
      const ticks = 2 * 10;
      const main = cpu.mainUser + cpu.mainSystem;
      assert.ok(main >= 300 - ticks, `main thread ${cpu.mainUser}+${cpu.mainSystem} ms`);
      assert.ok(cpu.otherThreads >= 400 - ticks, `other threads ${cpu.otherThreads} ms`);
      // The worker's 400 ms (it has ended) are not the main thread's, which burnt 300 from its start.
      assert.ok(main < 400 + 300, `main thread ${main} ms`);
    } finally {
      child.kill();
    }
  });

  it('is none for a process that has ended', () => {
    assert.equal(threadsCpu('999999999'), null);
  });
});

describe('the CPU spent between two snapshots', () => {
  const snapshot = (server: [string, number, number, number][], database: [string, number][]): CpuSnapshot => ({
    server: new Map(
      server.map(([pid, mainUser, mainSystem, otherThreads]) => [pid, { mainUser, mainSystem, otherThreads }]),
    ),
    database: new Map(database),
  });

  it('counts what each process used since, all of it for one that started since, none for one that ended', () => {
    const before = snapshot(
      [
        ['10', 100, 20, 5],
        ['11', 50, 50, 50],
      ],
      [
        ['20', 300],
        ['21', 1000],
      ],
    );
    const after = snapshot(
      [
        ['10', 160, 30, 15],
        ['12', 7, 2, 1],
      ],
      [
        ['20', 340],
        ['22', 25],
      ],
    );
    assert.deepEqual(cpuSpent(before, after), {
      server: 60 + 10 + 10 + 7 + 2 + 1,
      serverThreads: { mainUser: 60 + 7, mainSystem: 10 + 2, otherThreads: 10 + 1 },
      database: 40 + 25,
    });
  });
});
