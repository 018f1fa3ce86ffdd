/**
 * A Redis server of the test's own (`redis-server` from PATH) on a free loopback port, for tests that
 * stop and start it (never the shared one): no persistence, so a restart starts empty, as a Redis
 * lost and replaced does.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { freePort } from './processes.ts';
import { waitFor } from './wait-for.ts';

/** Why a private Redis cannot be started here, or null when it can. */
export function privateRedisUnavailable(): string | null {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return null;
  } catch {
    return 'no redis-server on PATH';
  }
}

export interface PrivateRedis {
  /** redis://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  /** Ends the server (SIGTERM); its clients see the connection close and reconnect in a loop. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty, and resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it if it runs. */
  remove(): Promise<void>;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let server: ChildProcess | null = null;
  const redis: PrivateRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      const child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
        { stdio: 'ignore' },
      );
      server = child;
      await waitFor(`redis-server on port ${port}`, async () => {
        if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
        return accepts(port);
      });
    },
    async stop() {
      const child = server;
      server = null;
      if (child === null || child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
    remove: () => redis.stop(),
  };
  await redis.start();
  return redis;
}
