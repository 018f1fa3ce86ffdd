/**
 * A recording TCP relay in front of PostgreSQL: the service connects through it, it passes every byte
 * on unchanged, and while recording it keeps each statement the service executes, as PostgreSQL
 * receives it (frontend protocol 3.0): the text (from the Parse of a prepared statement, however long
 * before its execution, or from a simple Query), the values bound (text format, as node-postgres sends
 * them), and whether it was named. BEGIN and COMMIT are statements like the others, so a capture keeps
 * the transaction shape. Used once before a run to capture what each scenario sends, never on the
 * measured path.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface RecordedStatement {
  text: string;
  /** Values in text format (null for SQL NULL); empty for a simple query. */
  values: (string | null)[];
  /** Sent as a named prepared statement (planned once per connection). */
  named: boolean;
  /** Sent as a simple Query message (no parameters: BEGIN, COMMIT, raw statements). */
  simple: boolean;
}

export interface WireRecorder {
  port: number;
  /** Starts a fresh record; what is executed until `stop` is returned by it. */
  start(): void;
  stop(): RecordedStatement[];
  close(): Promise<void>;
}

/** Reads the frontend messages of one connection and reports each executed statement. */
class FrontendParser {
  #buffer = Buffer.alloc(0);
  #startupDone = false;
  /** Prepared statements of this connection by name ('' is the unnamed one). */
  readonly #prepared = new Map<string, string>();
  /** The portal bound last, executed by the next Execute. */
  #bound: RecordedStatement | null = null;

  readonly #onStatement: (statement: RecordedStatement) => void;

  constructor(onStatement: (statement: RecordedStatement) => void) {
    this.#onStatement = onStatement;
  }

  push(chunk: Buffer): void {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      if (!this.#startupDone) {
        // The startup message (and an SSLRequest before it) has a length but no type byte.
        if (this.#buffer.length < 8) return;
        const length = this.#buffer.readInt32BE(0);
        if (this.#buffer.length < length) return;
        const code = this.#buffer.readInt32BE(4);
        this.#buffer = this.#buffer.subarray(length);
        if (code !== 80877103) this.#startupDone = true; // 80877103: SSLRequest, followed by the startup
        continue;
      }
      if (this.#buffer.length < 5) return;
      const length = this.#buffer.readInt32BE(1);
      if (this.#buffer.length < 1 + length) return;
      const type = String.fromCharCode(this.#buffer[0] ?? 0);
      this.#message(type, this.#buffer.subarray(5, 1 + length));
      this.#buffer = this.#buffer.subarray(1 + length);
    }
  }

  #message(type: string, body: Buffer): void {
    if (type === 'Q') {
      this.#onStatement({ text: cString(body, 0).value, values: [], named: false, simple: true });
    } else if (type === 'P') {
      const name = cString(body, 0);
      this.#prepared.set(name.value, cString(body, name.next).value);
    } else if (type === 'B') {
      const portal = cString(body, 0);
      const name = cString(body, portal.next);
      let at = name.next;
      const formats = body.readInt16BE(at);
      at += 2 + 2 * formats;
      const count = body.readInt16BE(at);
      at += 2;
      const values: (string | null)[] = [];
      for (let i = 0; i < count; i += 1) {
        const size = body.readInt32BE(at);
        at += 4;
        values.push(size < 0 ? null : body.subarray(at, at + size).toString('utf8'));
        at += Math.max(size, 0);
      }
      const text = this.#prepared.get(name.value) ?? '';
      this.#bound = { text, values, named: name.value !== '', simple: false };
    } else if (type === 'E' && this.#bound !== null) {
      this.#onStatement(this.#bound);
      this.#bound = null;
    }
  }
}

function cString(buffer: Buffer, from: number): { value: string; next: number } {
  const end = buffer.indexOf(0, from);
  return { value: buffer.subarray(from, end).toString('utf8'), next: end + 1 };
}

/** Listens on a free loopback port and relays every connection to PostgreSQL at `target`. */
export async function startWireRecorder(target: { host: string; port: number }): Promise<WireRecorder> {
  let record: RecordedStatement[] | null = null;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const parser = new FrontendParser((statement) => record?.push(statement));
    client.on('data', (chunk: Buffer) => {
      parser.push(chunk);
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    start: () => {
      record = [];
    },
    stop: () => {
      const recorded = record ?? [];
      record = null;
      return recorded;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
