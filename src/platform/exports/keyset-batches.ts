/**
 * Reads an export section's rows batch after batch: `read(after, limit)` returns the rows whose key
 * (one text or uuid column, unique among the user's rows: an id, the other side of a pair) follows
 * `after` (null: from the start) in key order, at most `limit`; the rows are yielded one by one and
 * the next batch is read only once they have been consumed, so at most one batch is in memory.
 */
export const exportBatchSize = 500;

export async function* keysetBatches<Row>(
  read: (after: string | null, limit: number) => Promise<Row[]>,
  keyOf: (row: Row) => string,
  batchSize = exportBatchSize,
): AsyncGenerator<Row> {
  let after: string | null = null;
  for (;;) {
    const batch = await read(after, batchSize);
    for (const row of batch) yield row;
    const last = batch.at(-1);
    if (batch.length < batchSize || last === undefined) return;
    after = keyOf(last);
  }
}

/** A section of at most one row (a profile, a subscription). */
export async function* singleRow<Row>(read: () => Promise<Row | null>): AsyncGenerator<Row> {
  const row = await read();
  if (row !== null) yield row;
}

/** Rows reshaped one by one as they pass (e.g. a storage key replaced by the file's path in the archive). */
export async function* mapped<Row, Out>(rows: AsyncIterable<Row>, map: (row: Row) => Out): AsyncGenerator<Out> {
  for await (const row of rows) yield map(row);
}

/** keysetBatches over rows keyed by their own `id` (most sections). */
export const byId = <Row extends { id: string }>(
  read: (after: string | null, limit: number) => Promise<Row[]>,
): AsyncGenerator<Row> => keysetBatches(read, (row) => row.id);
