/** All SQL of share links, on their own table. */
import { and, eq, getTableColumns, gt, sql } from 'drizzle-orm';
import { newestFirst } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { returned } from '../../platform/db/returned.ts';
import { type ShareLinkRow, shareLinks } from './tables.ts';

/** A link as its owner sees it: everything but the hashes. */
export type OwnShareLink = Omit<ShareLinkRow, 'tokenHash' | 'passwordHash'> & { hasPassword: boolean };

/** The owner's links, newest first. */
export const shareLinksKeyset = newestFirst<OwnShareLink>('share-links', shareLinks);

const { tokenHash: _token, passwordHash: _password, ...ownColumns } = getTableColumns(shareLinks);
const ownLinkColumns = { ...ownColumns, hasPassword: sql<boolean>`${shareLinks.passwordHash} IS NOT NULL` };

export class ShareLinksRepository extends Repository {
  async insert(row: ShareLinkRow): Promise<OwnShareLink> {
    const [inserted] = await this.db.insert(shareLinks).values(row).returning(ownLinkColumns);
    return returned(inserted, 'share_links.insert');
  }

  async list(ownerId: string, page: PageRequest): Promise<OwnShareLink[]> {
    const { where, orderBy } = keyset(shareLinksKeyset, page);
    return this.db
      .select(ownLinkColumns)
      .from(shareLinks)
      .where(and(eq(shareLinks.ownerId, ownerId), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /** The link of a token's hash (no cache: a revoked link ends at once on every instance). */
  async findByTokenHash(tokenHash: string): Promise<ShareLinkRow | null> {
    const [row] = await this.db.select().from(shareLinks).where(eq(shareLinks.tokenHash, tokenHash));
    return row ?? null;
  }

  /** Counts one view; false when the link was revoked meanwhile. */
  async countView(id: string): Promise<boolean> {
    const rows = await this.db
      .update(shareLinks)
      .set({ views: sql`${shareLinks.views} + 1` })
      .where(eq(shareLinks.id, id))
      .returning({ id: shareLinks.id });
    return rows.length > 0;
  }

  /** Revokes one of the owner's links; false when the owner has no such link. */
  async delete(ownerId: string, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(shareLinks)
      .where(and(eq(shareLinks.ownerId, ownerId), eq(shareLinks.id, id)))
      .returning({ id: shareLinks.id });
    return rows.length > 0;
  }

  /** An erased account (`user.erasing`): its links. */
  async eraseUser(ownerId: string): Promise<void> {
    await this.db.delete(shareLinks).where(eq(shareLinks.ownerId, ownerId));
  }

  /** The data export's links of a user, in keyset batches by id (never the hashes). */
  async exportRows(ownerId: string, after: string | null, limit: number): Promise<OwnShareLink[]> {
    return this.db
      .select(ownLinkColumns)
      .from(shareLinks)
      .where(and(eq(shareLinks.ownerId, ownerId), after === null ? undefined : gt(shareLinks.id, after)))
      .orderBy(shareLinks.id)
      .limit(limit);
  }
}
