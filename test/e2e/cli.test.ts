/**
 * The operator CLI: the registry, users:create, users:ban and users:unban (each with the effects of the
 * API's path), the <user> resolver, errors, and how it reaches the data.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { resolveUser } from '../../src/areas/accounts/resolve-user.ts';
import { usersCreateCommand } from '../../src/areas/accounts/users-create.command.ts';
import { searchDocuments } from '../../src/areas/search/tables.ts';
import { usersBanCommand, usersUnbanCommand } from '../../src/areas/user-admin/users-ban.command.ts';
import { type CliCommand, type CliContext, CliError } from '../../src/cli/command.ts';
import { runOnServer } from '../../src/cli/command-client.ts';
import { commandSocketPath, startCommandServer } from '../../src/cli/command-server.ts';
import { helpCommand } from '../../src/cli/commands/help.ts';
import { openCliDatabase } from '../../src/cli/connect.ts';
import { cliServices } from '../../src/cli/context.ts';
import { executeCommand } from '../../src/cli/execute.ts';
import { commands } from '../../src/cli/registry.ts';
import { loadConfig } from '../../src/config.ts';
import { AppError } from '../../src/platform/http/error-catalogue.ts';
import { adminToken, createTestApp, type TestApp } from '../helpers/app.ts';
import { cliTestContext } from '../helpers/cli.ts';
import { createEmptyPostgresDatabase, testEngine } from '../helpers/database.ts';
import { createUser, strongPassword, type TestUser } from '../helpers/factories.ts';
import { upload } from '../helpers/media-uploads.ts';
import { makePng } from '../support/test-images.ts';

const root = new URL('../../', import.meta.url).pathname;
const run = promisify(execFile);

describe('CLI commands', () => {
  let t: TestApp;
  let output: string[];
  let context: CliContext;
  /** Runs a command that must refuse its arguments as a usage mistake (exit 2) saying `pattern`. */
  const refusedAsUsage = (command: CliCommand, args: string[], pattern: RegExp) =>
    assert.rejects(command.run(context, args), (error: unknown) => {
      assert.ok(error instanceof CliError, String(error));
      assert.equal(error.exitCode, 2);
      assert.match(error.message, pattern);
      return true;
    });
  before(async () => {
    t = await createTestApp();
    ({ context, output } = cliTestContext(t));
  });
  after(() => t.close());

  it('registers each command once, and help lists them all with their usage', async () => {
    const names = commands.map((command) => command.name);
    assert.equal(new Set(names).size, names.length);
    assert.ok(names.includes('help') && names.includes('users:create'));
    output.length = 0;
    await helpCommand.run(context, []);
    for (const command of commands) {
      assert.ok(
        output.some((line) => line.includes(command.name) && line.includes(command.description)),
        command.name,
      );
    }
  });

  it('users:create prints the id of an account that can sign in, confirmed when asked', async () => {
    output.length = 0;
    await usersCreateCommand.run(context, [
      '--email',
      'cli@example.test',
      '--password',
      strongPassword,
      '--username',
      'cli_user',
      '--nickname',
      'CLI',
      '--confirmed',
    ]);
    const id = output.at(-1)!;
    const found = await t.request({ method: 'GET', url: '/api/users/search?q=cli_user' });
    assert.deepEqual(
      found.json.data.map((user: { id: string }) => user.id),
      [id],
      'found by the search at once, as a registered user is (not at the next repair)',
    );
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { login: 'cli_user', password: strongPassword },
    });
    assert.equal(login.statusCode, 200);
    assert.equal(login.json.included[0].id, id);
    assert.equal(login.json.included[0].attributes.emailConfirmed, true);
    assert.equal(login.json.included[0].attributes.nickname, 'CLI');
    assert.equal(
      t.mail.sent.filter((mail) => mail.to === 'cli@example.test').length,
      0,
      'no mail for operator-made accounts',
    );

    await usersCreateCommand.run(context, ['--email', 'cli2@example.test', '--password', strongPassword]);
    const plain = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: 'cli2@example.test', password: strongPassword },
    });
    assert.equal(plain.json.included[0].attributes.emailConfirmed, false);
    assert.equal(plain.json.included[0].attributes.username, null);
  });

  it('users:create refuses bad arguments as usage errors and rule violations with their code', async () => {
    const usage = (args: string[], pattern: RegExp) => refusedAsUsage(usersCreateCommand, args, pattern);
    await usage(['--password', strongPassword], /--email is required/);
    await usage(['--email', 'a@example.test'], /--password is required/);
    await usage(['--email', 'not-an-email', '--password', strongPassword], /--email/);
    await usage(['--email', 'a@example.test', '--password', strongPassword, '--username', 'no spaces'], /--username/);
    await usage(['--email', 'a@example.test', '--password', strongPassword, '--colour', 'red'], /colour/);
    await usage(['--email', 'a@example.test', '--password', strongPassword, 'extra'], /unexpected argument extra/);
    await assert.rejects(
      usersCreateCommand.run(context, ['--email', 'a@example.test', '--password', 'short']),
      (error: unknown) => {
        assert.ok(error instanceof AppError);
        assert.equal(error.code, 'weakPassword');
        return true;
      },
    );
    await assert.rejects(
      usersCreateCommand.run(context, ['--email', 'CLI@example.test', '--password', strongPassword]),
      (error: unknown) => {
        assert.ok(error instanceof AppError);
        assert.equal(error.code, 'emailTaken');
        return true;
      },
    );
  });

  it('users:ban and users:unban do what the admin routes do: sessions, login, media, search, audit', async () => {
    const byCli = await createUser(t, { username: 'banned_by_cli' });
    const byApi = await createUser(t, { username: 'banned_by_api' });
    const posts = new Map<string, { id: string; attributes: { hex: string } }>();
    for (const user of [byCli, byApi]) {
      const post = await upload(t, '/api/users/me/media', user.token, await makePng({ width: 24, height: 24 }));
      posts.set(user.id, post.json.data);
    }
    const admin = (method: 'GET' | 'PUT', url: string, body?: unknown) =>
      t.request({ method, url, token: adminToken, ...(body === undefined ? {} : { body }) });
    /** What the service shows of a user and their post, from outside. */
    const seen = async (user: TestUser) => {
      const post = posts.get(user.id)!;
      const search = await t.request({ method: 'GET', url: `/api/users/search?q=${user.username}` });
      const documents = await t.deps.database.db
        .select({ id: searchDocuments.sourceId })
        .from(searchDocuments)
        .where(eq(searchDocuments.sourceId, post.id));
      const account = (await admin('GET', `/admin/users/${user.hex}`)).json.data.attributes;
      return {
        inUserSearch: search.json.data.some((hit: { id: string }) => hit.id === user.id),
        mediaInIndex: documents.length,
        mediaVisible: (await t.services.areas.media.media.findVisibleMedia(post.id, null)) !== null,
        file: (await t.request({ method: 'GET', url: `/media/${post.attributes.hex}.webp?size=thumb` })).statusCode,
        session: (await t.request({ method: 'GET', url: '/api/auth/me', token: user.token })).statusCode,
        login: (
          await t.request({
            method: 'POST',
            url: '/api/auth/login',
            body: { login: user.username, password: strongPassword },
          })
        ).statusCode,
        banned: account.banned,
        reason: account.ban?.reason ?? null,
      };
    };
    const shown = { inUserSearch: true, mediaInIndex: 1, mediaVisible: true, file: 200, banned: false, reason: null };
    assert.deepEqual(await seen(byCli), { ...shown, session: 200, login: 200 });

    output.length = 0;
    await usersBanCommand.run(context, ['banned_by_cli', '--reason', '  spam links ']);
    assert.deepEqual(output, [`${byCli.id} banned until lifted`]);
    assert.equal((await admin('PUT', `/admin/users/${byApi.hex}/ban`, { reason: 'spam links' })).statusCode, 200);
    const hidden = {
      inUserSearch: false,
      mediaInIndex: 0,
      mediaVisible: false,
      file: 404,
      session: 401,
      login: 401,
      banned: true,
      reason: 'spam links',
    };
    assert.deepEqual(await seen(byCli), hidden);
    assert.deepEqual(await seen(byApi), hidden);

    t.clock.advance(1000);
    output.length = 0;
    await usersUnbanCommand.run(context, ['@banned_by_cli']);
    await usersUnbanCommand.run(context, [byCli.hex]);
    assert.deepEqual(output, [`${byCli.id} unbanned`, `${byCli.id} was not banned`]);
    assert.equal((await admin('PUT', `/admin/users/${byApi.hex}/unban`)).statusCode, 200);
    assert.deepEqual(await seen(byCli), { ...shown, session: 401, login: 200 });
    assert.deepEqual(await seen(byApi), { ...shown, session: 401, login: 200 });

    const audit = (await t.services.platform.audit.recent(200)).filter((entry) => entry.targetId === byCli.id);
    assert.deepEqual(audit.map((entry) => [entry.actor, entry.action]).reverse(), [
      ['cli', 'user.ban'],
      ['cli', 'user.unban'],
    ]);
  });

  it('users:ban refuses bad arguments as usage errors, and what the admin route refuses with its code', async () => {
    const target = await createUser(t, { username: 'ban_target' });
    const usage = (args: string[], pattern: RegExp) => refusedAsUsage(usersBanCommand, args, pattern);
    await usage(['ban_target'], /--reason is required/);
    await usage(['--reason', 'spam'], /one <user> is required/);
    await usage(['ban_target', 'other', '--reason', 'spam'], /one <user> is required/);
    await usage(
      ['ban_target', '--reason', 'spam', '--until', 'tomorrow'],
      /--until: "tomorrow" is not an RFC 3339 time/,
    );
    await usage(['ban_target', '--reason', 'spam', '--until', '2027-02-30T00:00:00Z'], /--until/);
    const refused = async (args: string[], pointer: string) => {
      await assert.rejects(usersBanCommand.run(context, args), (error: unknown) => {
        assert.ok(error instanceof AppError, String(error));
        assert.equal(error.code, 'validationFailed');
        assert.equal(error.options.source?.pointer, pointer);
        return true;
      });
    };
    await refused(['ban_target', '--reason', ' \u200b '], '/reason');
    await refused(['ban_target', '--reason', 'x'.repeat(501)], '/reason');
    await refused(['ban_target', '--reason', 'spam', '--until', '2020-01-01T00:00:00Z'], '/until');
    await assert.rejects(
      usersBanCommand.run(context, ['nobody_at_all', '--reason', 'spam']),
      (error: unknown) => error instanceof CliError && /no user "nobody_at_all"/.test(error.message),
    );
    output.length = 0;
    await usersBanCommand.run(context, [target.id, '--reason', 'a week off', '--until', '2027-01-01T00:00:00+01:00']);
    assert.deepEqual(output, [`${target.id} banned until 2026-12-31T23:00:00.000+00:00`]);
  });

  it('prints what the database said of a failed statement, never the statement or its values', async () => {
    const exec = (text: string) => t.deps.database.withMigrationLock((conn) => conn.exec(text));
    await exec(`
      CREATE FUNCTION test_no_new_users() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'no new accounts today'; END $$;
      CREATE TRIGGER test_no_new_users BEFORE INSERT ON users FOR EACH ROW EXECUTE FUNCTION test_no_new_users();
    `);
    try {
      const errors: string[] = [];
      const exit = await executeCommand(
        ['users:create', '--email', 'refused@example.test', '--password', strongPassword],
        async () => ({
          environment: { config: t.deps.config, ...t.services, database: t.deps.database, via: 'postgres' },
          close: async () => {},
        }),
        { print: () => {}, printError: (line) => errors.push(line) },
      );
      assert.equal(exit, 1);
      assert.deepEqual(errors, ['error: database error P0001: no new accounts today']);
    } finally {
      await exec('DROP TRIGGER test_no_new_users ON users; DROP FUNCTION test_no_new_users()');
    }
  });

  it('resolves a <user> given as a UUID, 32 hex digits or a username', async () => {
    const user = await createUser(t, { username: 'Resolvable' });
    for (const reference of [user.id, user.id.toUpperCase(), user.hex, 'resolvable', '@Resolvable']) {
      assert.equal((await resolveUser(context.areas.accounts.users, reference)).id, user.id, reference);
    }
    for (const reference of [
      'nobody_here',
      '00000000-0000-4000-8000-000000000000',
      'ffffffffffffffffffffffffffffffff',
    ]) {
      await assert.rejects(
        resolveUser(context.areas.accounts.users, reference),
        (error: unknown) => error instanceof CliError && error.message.includes(reference),
      );
    }
  });
});

describe('how the CLI reaches the data', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tms-cli-'));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const configFor = (dataDir: string, databaseUrl = '') =>
    loadConfig({ APP_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: databaseUrl });

  it('runs the command inside the running server when one serves DATA_DIR (PGlite)', async () => {
    const dataDir = tempDir();
    const server = await createTestApp({ env: { DATA_DIR: dataDir } });
    const commandServer = await startCommandServer(
      dataDir,
      { config: server.deps.config, ...server.services, via: 'server' },
      server.app.log,
    );
    try {
      const out: string[] = [];
      const err: string[] = [];
      const output = { print: (line: string) => out.push(line), printError: (line: string) => err.push(line) };
      const exit = await runOnServer(
        dataDir,
        ['users:create', '--email', 'via-server@example.test', '--password', strongPassword],
        output,
      );
      assert.equal(exit, 0, err.join('\n'));
      const created = await server.services.areas.accounts.users.findByEmail('via-server@example.test');
      assert.equal(created?.id, out.at(-1), 'the account is in the server’s database and its id was printed');
      const usage = await runOnServer(dataDir, ['users:create', '--email'], output);
      assert.equal(usage, 2, 'a usage mistake keeps its exit code through the server');
      assert.match(err.at(-1) ?? '', /^error: /);
      assert.ok(!existsSync(join(dataDir, 'db')), 'the CLI never opened the files itself');
    } finally {
      await commandServer.stop();
      await server.close();
    }
    assert.ok(!existsSync(commandSocketPath(dataDir)), 'the socket is removed when the server stops');
  });

  it('opens and migrates DATA_DIR/db itself when no server answers, even with a stale socket file', async () => {
    const dataDir = tempDir();
    writeFileSync(commandSocketPath(dataDir), '');
    assert.equal(await runOnServer(dataDir, ['help'], { print: () => {}, printError: () => {} }), null);
    const { database, via } = await openCliDatabase(configFor(dataDir));
    try {
      assert.equal(via, 'pglite-files');
      const services = await cliServices(configFor(dataDir), database);
      await services.areas.accounts.accounts.createAccount({ email: 'offline@example.test', password: strongPassword });
      await services.platform.broadcast.close();
    } finally {
      await database.close();
    }
    assert.ok(existsSync(join(dataDir, 'db', 'PG_VERSION')));
    const reopened = await openCliDatabase(configFor(dataDir));
    try {
      assert.equal(reopened.via, 'pglite-files');
      const services = await cliServices(configFor(dataDir), reopened.database);
      const found = await services.areas.accounts.users.findByEmail('offline@example.test');
      await services.platform.broadcast.close();
      assert.ok(found, 'the account persisted in DATA_DIR/db');
    } finally {
      await reopened.database.close();
    }
  });

  it('uses PostgreSQL when DATABASE_URL is set, migrating an empty database', {
    skip: testEngine() !== 'postgres',
  }, async () => {
    const empty = await createEmptyPostgresDatabase(process.env.DATABASE_URL!);
    try {
      const { database, via } = await openCliDatabase(configFor(tempDir(), empty.url));
      try {
        assert.equal(via, 'postgres');
        const services = await cliServices(configFor(tempDir(), empty.url), database);
        const user = await services.areas.accounts.accounts.createAccount({
          email: 'pg@example.test',
          password: strongPassword,
        });
        await services.platform.broadcast.close();
        assert.ok(user.id);
      } finally {
        await database.close();
      }
    } finally {
      await empty.drop();
    }
  });
});

describe('the CLI as a process', () => {
  const cli = (args: string[]) =>
    run(process.execPath, ['src/cli.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATA_DIR: join(tmpdir(), 'tms-cli-unused') },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

  it('prints help without opening any database, and refuses an unknown command in one line with exit 2', async () => {
    const help = await cli(['help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /users:create --email E --password P/);
    assert.ok(!existsSync(join(tmpdir(), 'tms-cli-unused', 'db')));
    const unknown = await cli(['users:explode']);
    assert.equal(unknown.code, 2);
    assert.equal(unknown.stderr.trim().split('\n').length, 1);
    assert.match(unknown.stderr, /^error: unknown command "users:explode"; commands: help, (.+, )?users:create/);
  });
});
