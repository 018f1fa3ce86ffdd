/**
 * An area is a module: it declares the areas it needs, builds its services from them and from the
 * platform, registers its jobs and event subscriptions, and declares its routes and CLI commands.
 * `src/areas/areas.ts` lists the modules, one line each; the app, the CLI and the job runner iterate
 * that list, so adding an area edits no shared file but that line.
 *
 * What an area provides is typed by augmenting `AreaServices` in its public.ts (its face):
 *
 *   declare module '../../platform/modules/area-module.ts' {
 *     interface AreaServices { follows: FollowsServices }
 *   }
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { AppDeps } from '../../deps.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import type { CacheRegistry } from '../cache/cache-registry.ts';
import type { DatabaseHealth } from '../db/database-health.ts';
import type { Transactions } from '../db/transactions.ts';
import type { EventBus } from '../events/domain-events.ts';
import type { ExportRegistry } from '../exports/export-registry.ts';
import type { Readiness } from '../health/readiness.ts';
import type { App } from '../http/types.ts';
import type { JobRunner } from '../jobs/jobs.ts';
import type { MailOutbox } from '../mail-outbox/mail-outbox.ts';
import type { MaintenanceMode } from '../maintenance/maintenance-mode.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Stats } from '../stats/stats.ts';

// biome-ignore lint/suspicious/noEmptyInterface: each area adds its services (declaration merging)
export interface AreaServices {}
export type AreaName = keyof AreaServices;

/**
 * What every area may use: the outside world (deps) and the shared mechanisms. Not the Database: every
 * statement of an area goes through `transactions` (its repositories' DbSource); what needs the pool
 * itself (migrations, the job runner, the liveness check) is the platform's.
 */
export interface Platform extends Omit<AppDeps, 'database'> {
  logger: FastifyBaseLogger;
  transactions: Transactions;
  /** The database's engine, and whether it answers (GET /api/ping). */
  databaseHealth: DatabaseHealth;
  events: EventBus;
  jobs: JobRunner;
  audit: AuditLog;
  /** In-process caches by name, for POST /admin/cache/purge: an owner registers each TtlCache it makes. */
  caches: CacheRegistry;
  /** Counters for GET /admin/stats: an area registers a provider per kind of row it owns. */
  stats: Stats;
  /** Sections of a user's data export (GET /api/users/me/export): an area registers one per kind of row it keeps of a user. */
  exports: ExportRegistry;
  maintenance: MaintenanceMode;
  /** The mail outbox: an area files each mail in the transaction of its cause (never `mailer` directly). */
  mail: MailOutbox;
  /** This instance's Prometheus metrics: an area adds a gauge of what it keeps (the render queue). */
  metrics: Metrics;
  /** What GET /health/ready answers; the server turns it off first when it stops. */
  readiness: Readiness;
}

export interface AreaModule<Name extends AreaName, Needs extends AreaName> {
  name: Name;
  /** The areas whose services this one calls; they are built first (checked when the app is built). */
  needs: readonly Needs[];
  /** Builds the services; registers jobs (platform.jobs) and event subscriptions (platform.events). */
  create(platform: Platform, needs: Pick<AreaServices, Needs>): AreaServices[Name];
  /**
   * Registers the area's routes: each routes file takes the services it uses and returns declarations,
   * which the module registers (registerRoutes) under the area's tag.
   */
  routes?(app: App, services: AreaServices[Name], platform: Platform): void | Promise<void>;
  /** Called when the server stops, after requests and jobs ended: finish work in flight. */
  stop?(services: AreaServices[Name]): Promise<void>;
  /** Operator commands (npm run cli -- …), listed by `help` in area order. */
  cliCommands?: readonly CliCommand[];
}

/** Declares an area module; the type parameters are inferred from `name` and `needs`. */
export function defineArea<Name extends AreaName, Needs extends AreaName = never>(
  module: AreaModule<Name, Needs>,
): AreaModule<Name, Needs> {
  return module;
}

// biome-ignore lint/suspicious/noExplicitAny: a list of modules of every area; each is checked by defineArea
export type AnyAreaModule = AreaModule<any, any>;

/** What every operator command receives (src/cli/command.ts re-exports it with CliError). */
export interface CliContext {
  config: Config;
  /** The services of every area, on the same database the server uses. */
  areas: AreaServices;
  platform: Platform;
  /** Where the command runs: on the CLI's PostgreSQL connection, inside the running server, or on the PGlite files. */
  via: 'postgres' | 'server' | 'pglite-files';
  /** Every registered command (for help). */
  commands: readonly CliCommand[];
  /** Prints one line of the command's result on stdout. */
  print(line: string): void;
  /** Where relative paths in the arguments start: the operator's directory, also when the server runs the command. */
  cwd?: string;
  /** Shows a transient status line (a progress bar) on the operator's terminal; absent when stderr is not one. */
  progress?(line: string): void;
}

/** An operator command: one file `<name>.command.ts` in its area, listed in the module's `cliCommands`. */
export interface CliCommand {
  name: string;
  /** Arguments after the name, e.g. `--email E --password P [--confirmed]`. */
  usage: string;
  description: string;
  /** false for commands that never touch the data (help); the database is then not opened. */
  usesDatabase?: boolean;
  run(context: CliContext, args: string[]): Promise<void>;
}
