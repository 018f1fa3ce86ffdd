/**
 * The benchmarks' floor twin (bench/harness): the recording relay keeps what PostgreSQL received (the
 * text of a prepared statement however long before it was executed, its values, simple queries such as
 * BEGIN), and the twin server runs those statements for each request and answers the captured bytes.
 * PostgreSQL only: the twin runs on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startTwin } from '../../bench/harness/twin.ts';
import { startWireRecorder, type WireRecorder } from '../../bench/harness/wire-recorder.ts';
import { createEmptyPostgresDatabase } from '../helpers/database.ts';

const serverUrl = process.env.DATABASE_URL;

describe('the floor twin of the benchmarks', { skip: serverUrl === undefined && 'PostgreSQL only' }, () => {
  let database: { url: string; drop(): Promise<void> };
  let recorder: WireRecorder;
  before(async () => {
    database = await createEmptyPostgresDatabase(serverUrl ?? '');
    const target = new URL(database.url);
    recorder = await startWireRecorder({ host: target.hostname, port: Number(target.port || 5432) });
  });
  after(async () => {
    await recorder.close();
    await database.drop();
  });

  const relayedClient = async () => {
    const url = Object.assign(new URL(database.url), { host: `127.0.0.1:${recorder.port}` }).toString();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return client;
  };

  it('records each executed statement with its values, a named one by the text it was prepared with', async () => {
    const client = await relayedClient();
    try {
      await client.query('CREATE TABLE visits (n integer, label text)');
      const insert = { name: 'insert-visit', text: 'INSERT INTO visits VALUES ($1, $2)' };
      await client.query({ ...insert, values: [1, 'first'] });
      recorder.start();
      await client.query('BEGIN');
      // Prepared before the recording began: only Bind and Execute cross the wire now.
      await client.query({ ...insert, values: [2, null] });
      await client.query({ text: 'SELECT count(*) FROM visits WHERE label = $1', values: ['first'] });
      await client.query('COMMIT');
      const recorded = recorder.stop();
      assert.deepEqual(recorded, [
        { text: 'BEGIN', values: [], named: false, simple: true },
        { text: 'INSERT INTO visits VALUES ($1, $2)', values: ['2', null], named: true, simple: false },
        { text: 'SELECT count(*) FROM visits WHERE label = $1', values: ['first'], named: false, simple: false },
        { text: 'COMMIT', values: [], named: false, simple: true },
      ]);
      await client.query('SELECT 1');
      assert.deepEqual(recorder.stop(), [], 'nothing is kept outside a recording');
    } finally {
      await client.end();
    }
  });

  it('runs the captured statements for each request, each sent as the service sent it, and answers the captured bytes', async () => {
    const body = JSON.stringify({ data: { id: 'é', type: 'twin' } });
    const statements = [
      { text: 'BEGIN', values: [], named: false, simple: true },
      { text: 'INSERT INTO visits VALUES ($1, $2)', values: ['7', 'twin'], named: true, simple: false },
      { text: 'SELECT count(*) FROM visits WHERE label = $1', values: ['twin'], named: false, simple: false },
      { text: 'COMMIT', values: [], named: false, simple: true },
    ];
    // The twin connects through the relay too, so what it sends is recorded as the service's was.
    const relayed = Object.assign(new URL(database.url), { host: `127.0.0.1:${recorder.port}` }).toString();
    const twin = await startTwin(
      relayed,
      [
        {
          path: '/api/visits?page=1',
          statements,
          status: 200,
          contentType: 'application/vnd.api+json; charset=utf-8',
          body: Buffer.from(body).toString('base64'),
        },
      ],
      2,
    );
    const client = await relayedClient();
    try {
      for (let i = 0; i < 3; i += 1) {
        recorder.start();
        const response = await fetch(`${twin.url}/api/visits?page=1`);
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('content-type'), 'application/vnd.api+json; charset=utf-8');
        assert.equal(response.headers.get('content-length'), String(Buffer.byteLength(body)));
        assert.equal(await response.text(), body);
        assert.deepEqual(recorder.stop(), statements, 'the same statements, named and unnamed as captured');
      }
      assert.equal((await fetch(`${twin.url}/api/visits`)).status, 404, 'a path not captured');
      const { rows } = await client.query("SELECT count(*)::int AS n FROM visits WHERE label = 'twin'");
      assert.equal(rows[0].n, 3, 'each request ran the statements');
    } finally {
      await client.end();
      await twin.stop();
    }
  });
});
