/**
 * The floor twin of the service, in a process of its own: a bare node:http server with its own `pg`
 * pool of the service's size, which for each request runs the very statements the service sent for
 * that path (captured by twin.ts: same text and values, in the same order on one connection, so the
 * same transaction shape; a statement the service prepared is prepared, one it sent unnamed is sent unnamed,
 * so planned for its values at each execution as the service's was) and answers the very
 * bytes the service answered, with its status, content type and length. What a scenario costs with no
 * framework, mapping, rendering or serialization: the database's work and the bytes on the wire.
 *
 * argv: the captures file (JSON, twin.ts `Capture[]`), the database URL, the pool size. Prints its port.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import pg from 'pg';
import type { Capture } from './twin.ts';

const [capturesFile, databaseUrl, poolSize] = process.argv.slice(2);
if (!capturesFile || !databaseUrl) throw new Error('usage: twin-server.ts <captures.json> <database url> [pool size]');

interface Answer {
  /** name: prepared under it; values: sent with the extended protocol (none: a simple query). */
  statements: { name: string | undefined; text: string; values: (string | null)[] | undefined }[];
  status: number;
  headers: Record<string, string | number>;
  body: Buffer;
}

const nameOf = (text: string) => `twin_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;

const answers = new Map<string, Answer>();
for (const capture of JSON.parse(readFileSync(capturesFile, 'utf8')) as Capture[]) {
  const body = Buffer.from(capture.body, 'base64');
  answers.set(capture.path, {
    // Each statement as the service sent it: a simple query (BEGIN, COMMIT) stays simple, a named one is
    // prepared (planned once per connection), an unnamed one is sent unnamed with its values.
    statements: capture.statements.map((statement) => ({
      name: statement.named ? nameOf(statement.text) : undefined,
      text: statement.text,
      values: statement.simple ? undefined : statement.values,
    })),
    status: capture.status,
    headers: { 'content-type': capture.contentType, 'content-length': body.length },
    body,
  });
}

const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(poolSize ?? 10) });

async function run(answer: Answer): Promise<void> {
  if (answer.statements.length === 0) return;
  const client = await pool.connect();
  try {
    for (const { name, text, values } of answer.statements) {
      await (values === undefined ? client.query(text) : client.query({ name, text, values }));
    }
  } finally {
    client.release();
  }
}

const server = createServer((request, response) => {
  const answer = answers.get(request.url ?? '');
  if (answer === undefined) {
    response.writeHead(404).end();
    return;
  }
  run(answer).then(
    () => response.writeHead(answer.status, answer.headers).end(answer.body),
    (error: Error) => response.writeHead(500, { 'content-type': 'text/plain' }).end(error.message),
  );
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as { port: number }).port}\n`);
});
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
