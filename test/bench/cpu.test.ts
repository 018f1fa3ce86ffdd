/**
 * The benchmarks' split of a server's CPU by thread (bench/harness/cpu.ts): a process that spends a
 * known CPU time on its main thread and another on a worker thread is read from /proc as that. The
 * child measures its own threads' CPU (process.threadCpuUsage), so the figures do not depend on how
 * busy the machine is.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { threadsCpu } from '../../bench/harness/cpu.ts';

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
  it("charges the main thread's work to it and a worker's to the other threads", async () => {
    const child = spawn(process.execPath, ['-e', childScript], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      await once(child.stdout, 'data');
      const cpu = threadsCpu(String(child.pid));
      const tick = 10; // /proc counts in hundredths of a second
      assert.ok(cpu.mainUser + cpu.mainSystem >= 300 - tick, `main thread ${cpu.mainUser}+${cpu.mainSystem} ms`);
      assert.ok(cpu.otherThreads >= 400 - tick, `other threads ${cpu.otherThreads} ms`);
      // The worker's 400 ms are not the main thread's: it burnt only its own 300 and its start.
      assert.ok(cpu.mainUser + cpu.mainSystem < 400 + 300, `main thread ${cpu.mainUser + cpu.mainSystem} ms`);
    } finally {
      child.kill();
    }
  });
});
