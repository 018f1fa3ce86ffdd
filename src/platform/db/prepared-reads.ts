/**
 * Reads of the hot paths as prepared statements: Drizzle builds the SQL text once, at the first call
 * (so making a repository touches no database), and on PostgreSQL each pooled connection plans it once
 * (a named statement). Inside a
 * transaction a statement is prepared on that transaction instead, at each call.
 *
 * PreparedRead: one statement, its values named by placeholders. Named `''`, it is built and mapped
 * once but sent unnamed, so PostgreSQL plans it for its values at every execution (a read whose right
 * plan depends on them: user search).
 *
 *   readonly #userById = new PreparedRead(this.source, 'accounts.userById', (db) =>
 *     db.select().from(users).where(eq(users.id, sql.placeholder('id'))));
 *   const [row] = await this.#userById.run({ id });
 *
 * PreparedPage: a keyset list as prepared statements, one per direction (the first page, the page
 * after a cursor, the page before one). The caller names its own values as placeholders
 * (`sql.placeholder('userId')`); `limit` and the cursor's `position0`, `position1`, … are filled in.
 *
 *   readonly #following = new PreparedPage(this.source, 'follows.following', followingKeyset,
 *     (db, where, orderBy) => db.select(...).from(follows)
 *       .where(and(eq(follows.followerId, sql.placeholder('userId')), where)).orderBy(...orderBy));
 *   following(userId, page) { return this.#following.run(page, { userId }); }
 */
import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Db, DbSource } from './database.ts';
import type { Keyset } from './keyset.ts';
import { keysetTemplate, positionValues } from './keyset-sql.ts';
import { literal } from './literals.ts';
import { defaultPageLimit, type PageRequest, pageDirections } from './page-request.ts';
import { compileRowMapping } from './row-mapping.ts';

interface Prepared<Row> {
  execute(values: Record<string, unknown>): Promise<Row[]>;
}
type Preparable<Row> = { prepare(name: string): Prepared<Row> };

export class PreparedRead<Row> {
  /** One per handle it ran on: the database, and the read replica for a replica-safe read. */
  readonly #statements = new Map<Db, Prepared<Row>>();
  private readonly source: DbSource;
  private readonly name: string;
  private readonly build: (db: Db) => Preparable<Row>;

  constructor(source: DbSource, name: string, build: (db: Db) => Preparable<Row>) {
    this.source = source;
    this.name = name;
    this.build = build;
  }

  run(values: Record<string, unknown>): Promise<Row[]> {
    const db = this.source.db;
    if (this.source.active) return this.build(db).prepare(this.name).execute(values);
    let statement = this.#statements.get(db);
    if (statement === undefined) {
      statement = compileRowMapping(this.build(db).prepare(this.name));
      this.#statements.set(db, statement);
    }
    return statement.execute(values);
  }
}

/**
 * A page read whose one plan is right for every value (a nearest-neighbour scan, whatever the centre):
 * the default page's LIMIT is written into a statement of its own, other sizes bind it. With only
 * `LIMIT $n` PostgreSQL counts the limit as a tenth of the rows when it weighs the plan it keeps
 * against one made for the values at hand, and may plan the statement again at every execution.
 * Not for lists whose right plan depends on the values (a heavy owner's media against a light one's:
 * docs/development.md); `build` gets the limit to use, `run` takes it as the value `limit`.
 */
export class PlannedOncePageRead<Row> {
  readonly #defaultSize: PreparedRead<Row>;
  readonly #anySize: PreparedRead<Row>;

  constructor(source: DbSource, name: string, build: (db: Db, limit: Placeholder) => Preparable<Row>) {
    // Drizzle binds a number given to limit(); SQL in its place is written into the statement as it is.
    const written = literal(defaultPageLimit + 1) as unknown as Placeholder;
    this.#defaultSize = new PreparedRead(source, `${name}.${defaultPageLimit + 1}`, (db) => build(db, written));
    this.#anySize = new PreparedRead(source, name, (db) => build(db, sql.placeholder('limit')));
  }

  run(values: Record<string, unknown> & { limit: number }): Promise<Row[]> {
    return (values.limit === defaultPageLimit + 1 ? this.#defaultSize : this.#anySize).run(values);
  }
}

export type PageQueryBuilder<Row> = (
  db: Db,
  where: SQL | undefined,
  orderBy: SQL[],
) => { limit(limit: Placeholder): Preparable<Row> };

export class PreparedPage<Row> {
  readonly #reads: Record<PageRequest['direction'], PreparedRead<Row>>;

  // biome-ignore lint/suspicious/noExplicitAny: a keyset over any row; the builder selects the rows
  constructor(source: DbSource, name: string, keyset: Keyset<any>, build: PageQueryBuilder<Row>) {
    this.#reads = byKey(pageDirections, (direction) => {
      const { where, orderBy } = keysetTemplate(keyset, direction);
      return new PreparedRead(source, `${name}.${direction}`, (db) =>
        build(db, where, orderBy).limit(sql.placeholder('limit')),
      );
    });
  }

  /** limit + 1 rows of the requested page, in the keyset's order for its direction. */
  run(page: PageRequest, values: Record<string, unknown>): Promise<Row[]> {
    return this.#reads[page.direction].run({ ...values, ...positionValues(page), limit: page.limit + 1 });
  }
}

/** One value per key, e.g. a statement per filter of a list: `byKey(['all', 'none'], (kind) => …)`. */
export function byKey<K extends string, V>(keys: readonly K[], make: (key: K) => V): Record<K, V> {
  return Object.fromEntries(keys.map((key) => [key, make(key)])) as Record<K, V>;
}
