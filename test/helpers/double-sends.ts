/**
 * Answers sent twice. Fastify logs "Reply was already sent" at `warn` when a reply is sent again (and
 * says nothing without a logger): every web page did so, unseen by the suite, until session 50
 * (src/platform/http/route-sent.test.ts). A test app without a logger of its own gets one at `warn`
 * that notes them, and its `close()` fails the test that made one.
 */
import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';

const marker = 'Reply was already sent';

export function watchDoubleSends(): { logger: Logger; seen(): string[] } {
  const seen: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n'))
        if (line.includes(marker)) seen.push((JSON.parse(line) as { err?: { message?: string } }).err?.message ?? line);
      done();
    },
  });
  return { logger: pino({ level: 'warn' }, sink), seen: () => [...seen] };
}
