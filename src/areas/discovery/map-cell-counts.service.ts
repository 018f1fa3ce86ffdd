/**
 * Keeps the map's precomputed cells current on every write that puts a media on the map, takes it
 * off or moves it (publication, flag, deletion, the owner's ban or account deletion, a position
 * edited or made private), in the writer's transaction: the media events' subscribers call it
 * (discovery.module.ts), so a photo is on the map, or off it, as soon as its change commits. The
 * ledger says where the cells count each media; what changed is the difference between it and the
 * media now. The map-clusters job only repairs what no event told (writes behind the API's back).
 */
import type { Transactions } from '../../platform/db/transactions.ts';
import type { CellChange, CountedPosition, MapCellCountsRepository } from './map-cell-counts.repository.ts';
import { precomputedZoom } from './map-grid.ts';

export class MapCellCountsService {
  private readonly transactions: Transactions;
  private readonly repository: MapCellCountsRepository;

  constructor(transactions: Transactions, repository: MapCellCountsRepository) {
    this.transactions = transactions;
    this.repository = repository;
  }

  /**
   * Brings the cells in line with these media as the transaction sees them. The writer holds each
   * media's row (it has just written it) and this takes their ledger rows before reading the media,
   * so two writes of one media take turns and each sees what the other left.
   */
  syncMedia(ids: readonly string[]): Promise<void> {
    return this.transactions.run(async () => {
      const counted = await this.repository.lockCounted(ids);
      const changes = changesBetween(counted, await this.repository.placedNow(ids));
      if (changes.length === 0) return;
      const removed = changes.filter((change) => change.sign < 0);
      await this.repository.recordCounted(
        removed.map((change) => change.mediaId),
        changes.filter((change) => change.sign > 0),
      );
      const cells = await this.repository.addToCells(changes);
      const emptied = cells.filter((cell) => cell.mediaCount <= 0);
      if (emptied.length > 0) await this.repository.deleteEmptied(emptied);
      // A cell whose representative left gets the best media it still holds, the finest level first.
      const left = new Set(removed.map((change) => change.mediaId));
      for (let zoom = precomputedZoom; zoom >= 0; zoom--) {
        const stale = cells.filter(
          (cell) => cell.zoom === zoom && cell.mediaCount > 0 && left.has(cell.representativeId),
        );
        if (stale.length > 0) await this.repository.repairRepresentatives(zoom, stale);
      }
    });
  }

  /**
   * The same for every post of an owner (a ban, its end, an account deletion confirmed or cancelled):
   * one sync, so the cells are locked in one order like any other write's.
   */
  async syncMediaOf(ownerId: string): Promise<void> {
    const ids = await this.repository.postIdsOf(ownerId);
    if (ids.length > 0) await this.syncMedia(ids);
  }
}

/** What moves the cells from what they count to what is placed now: a media out, in, or both (moved). */
function changesBetween(
  counted: readonly CountedPosition[],
  placed: ReadonlyArray<CountedPosition & { likes: number }>,
): CellChange[] {
  const same = (a: CountedPosition, b: CountedPosition | undefined) =>
    b !== undefined && a.latitude === b.latitude && a.longitude === b.longitude;
  const countedById = new Map(counted.map((item) => [item.mediaId, item]));
  const placedById = new Map(placed.map((item) => [item.mediaId, item]));
  return [
    ...counted
      .filter((item) => !same(item, placedById.get(item.mediaId)))
      .map((item) => ({ ...item, sign: -1 as const, likes: 0 })),
    ...placed
      .filter((item) => !same(item, countedById.get(item.mediaId)))
      .map((item) => ({ ...item, sign: 1 as const })),
  ];
}
