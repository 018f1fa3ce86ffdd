/**
 * The row a statement returns by construction: an INSERT's or an upsert's RETURNING, an aggregate
 * without GROUP BY, an UPDATE of a row the transaction holds locked. Its absence is a bug, thrown as
 * MissingRow (answered 500), never a row made up.
 *
 *   const [inserted] = await this.db.insert(bookmarks).values(row).returning();
 *   return returned(inserted, 'bookmarks.insert');
 */
export class MissingRow extends Error {
  constructor(statement: string) {
    super(`${statement} returned no row`);
    this.name = 'MissingRow';
  }
}

export function returned<Row>(row: Row | null | undefined, statement: string): Row {
  if (row === null || row === undefined) throw new MissingRow(statement);
  return row;
}
