/**
 * The real server (`node src/main.ts`) as a child process of a test, on a free loopback port, for
 * fault tests with several instances: start, call it over HTTP, freeze and resume it, stop it. Its
 * output is kept, so a failure can show the end of its log.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { freePort, waitForPing } from './processes.ts';

const root = new URL('../../', import.meta.url).pathname;

/** The admin token of every instance a test starts. */
export const adminToken = 'fault-tests-admin-token';

export interface ServerProcess {
  readonly base: string;
  readonly child: ChildProcess;
  readonly output: string[];
  /** One request; `token` is a user's Bearer token, `admin` the admin token. */
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  /** The last `chars` characters of its log. */
  log(chars?: number): string;
  /** SIGSTOP / SIGCONT: the process keeps its sockets but runs nothing, as a stalled machine. */
  freeze(): void;
  resume(): void;
  /** SIGTERM, then SIGKILL if it has not exited within 15 s. */
  stop(): Promise<void>;
}

export interface CallOptions {
  /** A user's Bearer token. */
  token?: string;
  /** Sends the admin token instead. */
  admin?: boolean;
  /** Sent as JSON. */
  body?: unknown;
  /** More headers (e.g. X-Forwarded-For, for a server that trusts a proxy). */
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  headers: Headers;
  /** The parsed JSON body (a JSON:API document, read by the test as it likes), or the text. */
  json: any;
}

export async function startServer(env: Record<string, string>, startTimeoutMs = 120_000): Promise<ServerProcess> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      APP_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_POOL_SIZE: '4',
      REDIS_URL: '',
      SMTP_URL: '',
      ADMIN_API_TOKEN: adminToken,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const log = (chars = 3000) => output.join('').slice(-chars);
  await waitForPing(base, child, startTimeoutMs).catch((error: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${error.message}:\n${log()}`);
  });
  return {
    base,
    child,
    output,
    log,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = {
        accept: 'application/vnd.api+json, application/json',
        ...options.headers,
      };
      if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
      if (options.admin) headers.authorization = `Bearer ${adminToken}`;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${base}${path}`, {
        method,
        headers,
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        // Only ends a request that would otherwise hang: the server must answer, not keep it waiting.
        signal: AbortSignal.timeout(20_000),
      });
      const text = await response.text();
      let json: unknown = null;
      try {
        json = text === '' ? null : JSON.parse(text);
      } catch {
        json = text;
      }
      return { status: response.status, headers: response.headers, json };
    },
    freeze: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT');
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Registers an account through `server` and returns its access token and hex id. */
export async function registerThrough(
  server: ServerProcess,
  email: string,
  headers: Record<string, string> = {},
): Promise<{ token: string; hex: string }> {
  const answer = await server.call('POST', '/api/auth/register', {
    body: { email, password: 'a long enough password 1' },
    headers,
  });
  if (answer.status !== 201) throw new Error(`register ${email}: ${answer.status} ${JSON.stringify(answer.json)}`);
  const token: string = answer.json.data.attributes.accessToken;
  const me = await server.call('GET', '/api/auth/me', { token, headers });
  return { token, hex: me.json.data.attributes.hex };
}
