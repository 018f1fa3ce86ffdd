/**
 * `seed:demo [--force] [--json]`: builds the demo world (seed-demo.ts) in a fresh database and prints
 * what it made. A database that has users already is refused (exit 1) unless `--force`, so a
 * mistyped command never fills a real service with invented travellers. `--no-variants` leaves the
 * images' variants to the server (its media-variants job, or a render when first asked for).
 */
import { parseOptions } from '../args.ts';
import { type CliCommand, CliError } from '../command.ts';
import { demoEmailDomain, demoPassword } from './people.ts';

const usage = '[--force] [--no-variants] [--json]';

export const seedDemoCommand: CliCommand = {
  name: 'seed:demo',
  usage,
  description: 'Build the demo world (30 travellers, 300 photos in 40 cities, follows, likes, comments, catalogue)',
  async run(context, args) {
    const { values, positionals } = parseOptions(
      args,
      { force: { type: 'boolean' }, 'no-variants': { type: 'boolean' }, json: { type: 'boolean' } },
      usage,
    );
    if (positionals.length > 0) throw new CliError(`unexpected argument ${positionals[0]} (usage: ${usage})`, 2);
    const existing = (await context.platform.stats.refresh()).counts.users?.total ?? 0;
    if (existing > 0 && values.force !== true) {
      throw new CliError(
        `the database has ${existing} users already; seed:demo fills a fresh one (--force to add anyway)`,
      );
    }
    // Loaded here, not with the command list: it brings sharp (libvips), which a server that never
    // seeds should not hold in memory (the PGlite server loads the command list at start).
    const { seedDemoWorld } = await import('./seed-demo.ts');
    // The bar goes to stderr (only on a terminal), so it never mixes with --json on stdout.
    const report = await seedDemoWorld(context.platform, context.areas, {
      progress: context.progress,
      renderVariants: values['no-variants'] !== true,
    });
    if (values.json) {
      context.print(JSON.stringify(report));
      return;
    }
    context.print(
      `demo world: ${report.users} users, ${report.photos} photos in ${report.cities} cities, ` +
        `${report.follows} follows, ${report.likes} likes, ${report.comments} comments in ${report.seconds} s`,
    );
    context.print(
      `catalogue: ${Object.entries(report.catalogue)
        .map(([dataset, count]) => `${count} ${dataset}`)
        .join(', ')}`,
    );
    context.print(`sign in as amelie.voyage (or any demo user, @${demoEmailDomain}) with the password ${demoPassword}`);
  },
};
