/**
 * The load generator, run in a process of its own (see load.ts) so it never shares an event loop
 * with the server: runs autocannon with the options in argv[2] (JSON) and prints its summary as JSON.
 */
import autocannon from 'autocannon';

const options = JSON.parse(process.argv[2]!);
const cpuBefore = process.cpuUsage();
const result = await autocannon(options);
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(
  JSON.stringify({
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    // autocannon counts a timeout among its errors too (its README: errors, including timeouts).
    bad: result.non2xx + result.errors,
    badKinds: `${result.non2xx} not 2xx, ${result.errors} errors (${result.timeouts} of them timeouts)`,
    requests: result.requests.total,
    loadCpuMs: (cpu.user + cpu.system) / 1000,
  }),
);
