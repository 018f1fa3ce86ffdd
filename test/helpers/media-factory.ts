/**
 * Media rows inserted directly, for areas that only need a media to point at (reactions, bookmarks):
 * no file is stored. Uploads have their own tests through the real route.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { type MediaRow, media } from '../../src/areas/media/tables.ts';
import type { TestApp } from './app.ts';

export type NewMediaRow = typeof media.$inferInsert;

let counter = 0;

export async function createMediaRow(
  t: TestApp,
  ownerId: string,
  overrides: Partial<NewMediaRow> = {},
): Promise<MediaRow> {
  counter += 1;
  const id = overrides.id ?? randomUUID();
  // Each row a millisecond apart, so lists ordered by creation time are deterministic.
  const createdAt = overrides.createdAt ?? new Date(t.clock.now().getTime() + counter);
  const [row] = await t.deps.database.db
    .insert(media)
    .values({
      id,
      ownerId,
      kind: 'post',
      published: true,
      flag: 0,
      describeStatus: 'described',
      description: `A view from the harbour, photo ${counter}`,
      descriptionLocale: 'en-US',
      hashtags: ['harbour', 'sunset'],
      originalKey: `originals/${id.replaceAll('-', '')}.jpg`,
      originalFormat: 'jpeg',
      byteSize: 245_000 + counter,
      width: 1600,
      height: 1200,
      contentHash: randomBytes(32).toString('hex'),
      latitude: 43.2965,
      longitude: 5.3698,
      takenAt: new Date('2026-07-14T18:30:00.000Z'),
      countryCode: 'FR',
      createdAt,
      updatedAt: createdAt,
      ...overrides,
    })
    .returning();
  return row!;
}

/** The media row as stored now (counters included). */
export async function readMediaRow(t: TestApp, id: string): Promise<MediaRow> {
  const [row] = await t.deps.database.db.select().from(media).where(eq(media.id, id));
  if (!row) throw new Error(`no media ${id}`);
  return row;
}

/** Changes a media row behind the API's back, e.g. a moderator hiding it. */
export async function updateMediaRow(t: TestApp, id: string, patch: Partial<NewMediaRow>): Promise<void> {
  await t.deps.database.db.update(media).set(patch).where(eq(media.id, id));
}
