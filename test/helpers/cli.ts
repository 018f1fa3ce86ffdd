/** A CLI context on a test app, for running command modules directly; `output` collects what they print. */
import type { CliContext } from '../../src/cli/command.ts';
import { commands } from '../../src/cli/registry.ts';
import type { TestApp } from './app.ts';

export function cliTestContext(t: TestApp): { context: CliContext; output: string[] } {
  const output: string[] = [];
  const context: CliContext = {
    config: t.deps.config,
    ...t.services,
    via: 'postgres',
    commands,
    print: (line) => output.push(line),
  };
  return { context, output };
}
