/** Publicly listed posts of owners in good standing, with their tags: what the counts count. */
import { sql } from 'drizzle-orm';
import { userRows as users, visibleUser } from '../accounts/read-model.ts';
import { mediaRows as media, mediaListedFor } from '../media/read-model.ts';

/** The FROM and WHERE of every read of listed posts (a rebuild, a resync): add `AND …` to narrow it. */
export const listedMedia = sql`${media}
  JOIN ${users} ON ${users.id} = ${media.ownerId}
  WHERE ${mediaListedFor(null)} AND ${visibleUser()}`;
