/**
 * Reads of the hot paths as prepared statements: Drizzle builds the SQL text once, when the repository
 * is made, and on PostgreSQL each pooled connection plans it once (a named statement). Inside a
 * transaction a statement is prepared on that transaction instead, at each call.
 *
 * PreparedRead: one statement, its values named by placeholders.
 *
 *   readonly #userById = new PreparedRead(this.source, 'accounts.userById', (db) =>
 *     db.select().from(users).where(eq(users.id, sql.placeholder('id'))));
 *   const [row] = await this.#userById.run({ id });
 *
 * PreparedPage: a keyset list as prepared statements, one per direction (the first page, the page after a cursor,
 * the page before one). The caller names its own values as placeholders (`sql.placeholder('userId')`); `limit` and the cursor's
 * `position0`, `position1`, … are filled in here.
 *
 *   readonly #following = new PreparedPage(this.source, 'follows.following', followingKeyset,
 *     (db, where, orderBy) => db.select(...).from(follows)
 *       .where(and(eq(follows.followerId, sql.placeholder('userId')), where)).orderBy(...orderBy));
 *   following(userId, page) { return this.#following.run(page, { userId }); }
 */
import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import { type Keyset, keysetTemplate, type PageRequest, positionValues } from '../http/pagination.ts';
import type { Db, DbSource } from './database.ts';

type Direction = PageRequest['direction'];
const directions: Direction[] = ['first', 'after', 'before'];

interface Prepared<Row> {
  execute(values: Record<string, unknown>): Promise<Row[]>;
}
interface Limitable<Row> {
  limit(limit: Placeholder): { prepare(name: string): Prepared<Row> };
}

export class PreparedRead<Row> {
  readonly #statement: Prepared<Row>;
  private readonly source: DbSource;
  private readonly name: string;
  private readonly build: (db: Db) => { prepare(name: string): Prepared<Row> };

  constructor(source: DbSource, name: string, build: (db: Db) => { prepare(name: string): Prepared<Row> }) {
    this.source = source;
    this.name = name;
    this.build = build;
    this.#statement = build(source.db).prepare(name);
  }

  run(values: Record<string, unknown>): Promise<Row[]> {
    const statement = this.source.active ? this.build(this.source.db).prepare(this.name) : this.#statement;
    return statement.execute(values);
  }
}

export type PageQueryBuilder<Row> = (db: Db, where: SQL | undefined, orderBy: SQL[]) => Limitable<Row>;

export class PreparedPage<Row> {
  readonly #statements = new Map<Direction, Prepared<Row>>();
  private readonly source: DbSource;
  private readonly name: string;
  // biome-ignore lint/suspicious/noExplicitAny: a keyset over any row; the builder selects the rows
  private readonly keyset: Keyset<any>;
  private readonly build: PageQueryBuilder<Row>;

  // biome-ignore lint/suspicious/noExplicitAny: see keyset
  constructor(source: DbSource, name: string, keyset: Keyset<any>, build: PageQueryBuilder<Row>) {
    this.source = source;
    this.name = name;
    this.keyset = keyset;
    this.build = build;
    for (const direction of directions) this.#statements.set(direction, this.#prepare(source.db, direction));
  }

  #prepare(db: Db, direction: Direction): Prepared<Row> {
    const { where, orderBy } = keysetTemplate(this.keyset, direction);
    return this.build(db, where, orderBy).limit(sql.placeholder('limit')).prepare(`${this.name}.${direction}`);
  }

  /** limit + 1 rows of the requested page, in the keyset's order for its direction. */
  run(page: PageRequest, values: Record<string, unknown>): Promise<Row[]> {
    const statement = this.source.active
      ? this.#prepare(this.source.db, page.direction)
      : this.#statements.get(page.direction)!;
    return statement.execute({ ...values, ...positionValues(page), limit: page.limit + 1 });
  }
}
