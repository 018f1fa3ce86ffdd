/**
 * Whether this instance should be given traffic (GET /health/ready): its database answers, every
 * migration this release ships is applied there, its job queue runs, and it is not stopping. A
 * graceful stop turns it off first (`beginDraining`), so load balancers take the instance out of
 * rotation while it still answers the requests they send meanwhile.
 */
import { sql } from 'drizzle-orm';
import { within } from '../concurrency/within.ts';
import type { Database } from '../db/database.ts';
import { type DatabaseHealth, databaseHealth } from '../db/database-health.ts';
import { readMigrations } from '../db/migrate.ts';
import { queryRows } from '../db/rows.ts';
import type { JobRunner } from '../jobs/jobs.ts';

export interface ReadinessChecks {
  database: 'ok' | 'unreachable';
  migrations: 'ok' | 'pending' | 'unknown';
  jobs: 'ok' | 'notStarted';
  draining: boolean;
}

export interface ReadinessReport {
  ready: boolean;
  checks: ReadinessChecks;
}

/** How long the database may take to answer the check before it counts as unreachable. */
export const readinessQueryTimeoutMs = 2_000;

export class Readiness {
  readonly #database: Database;
  readonly #health: DatabaseHealth;
  readonly #jobs: JobRunner;
  #draining = false;
  /** Once every migration was seen applied it stays so (migrations only go forward): one query less. */
  #migrated = false;
  /** Probes arriving together share one check. */
  #inFlight: Promise<ReadinessReport> | null = null;

  constructor(database: Database, jobs: JobRunner) {
    this.#database = database;
    this.#health = databaseHealth(database);
    this.#jobs = jobs;
  }

  /** A graceful stop has begun: not ready from now on, whatever the checks say. */
  beginDraining(): void {
    this.#draining = true;
  }

  get draining(): boolean {
    return this.#draining;
  }

  check(): Promise<ReadinessReport> {
    this.#inFlight ??= this.#check().finally(() => {
      this.#inFlight = null;
    });
    return this.#inFlight;
  }

  async #check(): Promise<ReadinessReport> {
    let database: ReadinessChecks['database'] = 'ok';
    let migrations: ReadinessChecks['migrations'] = this.#migrated ? 'ok' : 'unknown';
    try {
      if (this.#migrated) await this.#bounded(this.#health.check());
      else {
        migrations = (await this.#bounded(this.#pendingMigrations())) === 0 ? 'ok' : 'pending';
        this.#migrated = migrations === 'ok';
      }
    } catch {
      database = 'unreachable';
    }
    const checks: ReadinessChecks = {
      database,
      migrations,
      jobs: this.#jobs.started ? 'ok' : 'notStarted',
      draining: this.#draining,
    };
    const ready = database === 'ok' && migrations === 'ok' && checks.jobs === 'ok' && !this.#draining;
    return { ready, checks };
  }

  /** How many of this release's migrations the database has not applied (a query that also proves it answers). */
  async #pendingMigrations(): Promise<number> {
    const applied = new Set(
      (await queryRows<{ name: string }>(this.#database.db, sql`SELECT name FROM schema_migrations`)).map(
        (row) => row.name,
      ),
    );
    return readMigrations().filter((file) => !applied.has(file.name)).length;
  }

  /** The query, or an error once it has taken longer than the bound (the query itself goes on). */
  async #bounded<T>(query: Promise<T>): Promise<T> {
    const late = Symbol('late');
    const answer = await within(query, readinessQueryTimeoutMs, late);
    if (answer === late) throw new Error('database check timed out');
    return answer;
  }
}
