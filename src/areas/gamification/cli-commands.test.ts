/** xp:award and badges:award, run through the CLI command modules on the test database. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { cliTestContext } from '../../../test/helpers/cli.ts';
import { createUser } from '../../../test/helpers/factories.ts';
import { type CliContext, CliError } from '../../cli/command.ts';
import { commands } from '../../cli/registry.ts';
import { badgesAwardCommand } from './badges-award.command.ts';
import { xpAwardCommand } from './xp-award.command.ts';

describe('gamification CLI commands', () => {
  let t: TestApp;
  let output: string[];
  let context: CliContext;
  before(async () => {
    t = await createTestApp();
    ({ context, output } = cliTestContext(t));
  });
  after(() => t.close());

  it('are registered', () => {
    const names = commands.map((command) => command.name);
    assert.ok(names.includes('xp:award') && names.includes('badges:award'));
  });

  it('xp:award takes an id, a hex id or a username and notifies the levels crossed', async () => {
    const user = await createUser(t);
    await xpAwardCommand.run(context, [user.username, '300']);
    assert.equal(output.at(-1), `${user.id} experience 300 level 0 -> 2`);
    await xpAwardCommand.run(context, [user.hex, '300']);
    assert.equal(output.at(-1), `${user.id} experience 600 level 2 -> 3`);
    const feed = await t.request({ method: 'GET', url: '/api/users/me/notifications', token: user.token });
    assert.equal(feed.json.data.filter((row: any) => row.attributes.type === 'user.level.up').length, 3);
  });

  it('badges:award raises a badge and says from which level', async () => {
    const user = await createUser(t);
    await badgesAwardCommand.run(context, [user.id, 'explorer', '2']);
    assert.equal(output.at(-1), `${user.id} explorer level 0 -> 2`);
    const badges = await t.request({ method: 'GET', url: `/api/users/${user.id}/badges` });
    assert.equal(badges.json.data[0].attributes.level, 2);
  });

  it('refuses bad arguments as usage errors (exit 2) and unknown users or badges as failures', async () => {
    const user = await createUser(t);
    for (const args of [[], [user.id], [user.id, '0'], [user.id, '-5'], [user.id, 'ten'], [user.id, '5', 'extra']]) {
      await assert.rejects(
        xpAwardCommand.run(context, args),
        (error: unknown) => error instanceof CliError && error.exitCode === 2,
        args.join(' '),
      );
    }
    await assert.rejects(
      badgesAwardCommand.run(context, [user.id, 'explorer', 'x']),
      (error: unknown) => error instanceof CliError && error.exitCode === 2,
    );
    await assert.rejects(
      xpAwardCommand.run(context, ['nobody-here', '5']),
      (error: unknown) => error instanceof CliError && error.exitCode === 1,
    );
    await assert.rejects(badgesAwardCommand.run(context, [user.id, 'astronaut', '1']), { code: 'notFound' });
    await assert.rejects(badgesAwardCommand.run(context, [user.id, 'explorer', '99']), { code: 'validationFailed' });
  });
});
