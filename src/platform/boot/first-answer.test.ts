import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, describe, it } from 'node:test';
import { firstAnswer } from './first-answer.ts';

/** A server answering each request once `release` is called, listening on loopback. */
async function slowServer(): Promise<{ server: Server; url: string; release: () => void }> {
  const waiting: (() => void)[] = [];
  const server = createServer((_request, response) => {
    waiting.push(() => response.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}`, release: () => waiting.shift()?.() };
}

describe('first answer', () => {
  const servers: Server[] = [];
  after(() => {
    for (const server of servers) server.close();
  });

  it('resolves once the first request has been answered, not when it arrives, and then leaves the server alone', async () => {
    const { server, url, release } = await slowServer();
    servers.push(server);
    const listenersBefore = server.listenerCount('request');
    let answered = false;
    const waiting = firstAnswer(server, 60_000).then(() => {
      answered = true;
    });
    const response = fetch(url);
    while (server.listenerCount('request') === listenersBefore + 1 && !answered) {
      // until the request has arrived (the watcher leaves on arrival)
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    assert.equal(answered, false, 'the request has arrived but is not answered yet');
    release();
    assert.equal(await (await response).text(), 'ok');
    await waiting;
    assert.equal(answered, true);
    assert.equal(server.listenerCount('request'), listenersBefore, 'no listener left for later requests');
  });

  it('resolves at the deadline when no request comes, and removes its listener', async () => {
    const { server } = await slowServer();
    servers.push(server);
    const listenersBefore = server.listenerCount('request');
    await firstAnswer(server, 10);
    assert.equal(server.listenerCount('request'), listenersBefore);
  });
});
