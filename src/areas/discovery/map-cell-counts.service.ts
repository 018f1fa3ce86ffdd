/**
 * Keeps the map's precomputed cells current on every write that puts a media on the map, takes it
 * off or moves it (publication, flag, deletion, the owner's ban or account deletion, a position
 * edited or made private), in the writer's transaction: the media events' subscribers call it
 * (discovery.module.ts), so a photo is on the map, or off it, as soon as its change commits. The
 * ledger says where the cells count each media; what changed is the difference between it and the
 * media now. Likes move the cells' representatives right after they commit (followLikes). The
 * map-clusters job only repairs what no event told (writes behind the API's back).
 */
import type { Transactions } from '../../platform/db/transactions.ts';
import type {
  CellChange,
  CellKey,
  CountedPosition,
  MapCellCountsRepository,
  TouchedCell,
} from './map-cell-counts.repository.ts';
import { precomputedZoom } from './map-grid.ts';

export interface MapCellCountsServiceDeps {
  transactions: Transactions;
  repository: MapCellCountsRepository;
}

export class MapCellCountsService {
  readonly #deps: MapCellCountsServiceDeps;

  constructor(deps: MapCellCountsServiceDeps) {
    this.#deps = deps;
  }

  /**
   * Brings the cells in line with these media as the transaction sees them. The writer holds each
   * media's row (it has just written it) and this takes their ledger rows before reading the media,
   * so two writes of one media take turns and each sees what the other left.
   */
  syncMedia(ids: readonly string[]): Promise<void> {
    return this.#deps.transactions.run(async () => {
      const counted = await this.#deps.repository.lockCounted(ids);
      const changes = changesBetween(counted, await this.#deps.repository.placedNow(ids));
      if (changes.length === 0) return;
      const removed = changes.filter((change) => change.sign < 0).map((change) => change.mediaId);
      await this.#deps.repository.recordCounted(
        removed,
        changes.filter((change) => change.sign > 0),
      );
      const cells = await this.#deps.repository.addToCells(changes);
      const emptied = cells.filter((cell) => cell.mediaCount <= 0);
      if (emptied.length > 0) await this.#deps.repository.deleteEmptied(emptied);
      // A cell whose representative left it gets the best media it still holds, the finest level first.
      // Only a write that takes media off can leave such a cell behind (see #unplacedOthers): a
      // publication, the common write, asks nothing more.
      const left = new Set(removed.length === 0 ? [] : [...removed, ...(await this.#unplacedOthers(cells, ids))]);
      await this.#repairRepresentatives(cells.filter((cell) => cell.mediaCount > 0 && left.has(cell.representativeId)));
    });
  }

  /**
   * Moves the representatives a media's likes decide, once its likes changed (`media.likesChanged`,
   * after the change commits, in a transaction of its own): the cells it now beats take it, the cells
   * it represents with another count get the best they hold now. Each run reads the likes as they are,
   * so runs for one media's likes in quick succession end where the last like left them, and a run
   * that failed can be run again later (the job after-commit-retries does).
   */
  followLikes(mediaId: string): Promise<void> {
    return this.#deps.transactions.run(async () => {
      await this.#repairRepresentatives(await this.#deps.repository.lockCellsItsLikesMove(mediaId));
    });
  }

  /** Gives these cells their best representative, the finest level first (each level reads the one below). */
  async #repairRepresentatives(cells: readonly CellKey[]): Promise<void> {
    for (let zoom = precomputedZoom; zoom >= 0; zoom--) {
      const ofZoom = cells.filter((cell) => cell.zoom === zoom);
      if (ofZoom.length > 0) await this.#deps.repository.repairRepresentatives(zoom, ofZoom);
    }
  }

  /**
   * The representatives of these cells, other than the media written, that are no longer placed in
   * public. When a transaction takes several media off one after the other (an erased owner's), a
   * cell may keep an earlier one as its representative: no placed media could stand in while a later
   * one, deleted but not yet taken off, was still counted. The write that takes that one off repairs it.
   */
  async #unplacedOthers(cells: readonly TouchedCell[], written: readonly string[]): Promise<string[]> {
    const skip = new Set(written);
    const others = [
      ...new Set(cells.filter((cell) => cell.mediaCount > 0).map((cell) => cell.representativeId)),
    ].filter((id) => !skip.has(id));
    if (others.length === 0) return [];
    const placed = new Set((await this.#deps.repository.placedNow(others)).map((item) => item.mediaId));
    return others.filter((id) => !placed.has(id));
  }

  /**
   * The same for every post of an owner (a ban, its end, an account deletion confirmed or cancelled):
   * one sync, so the cells are locked in one order like any other write's.
   */
  async syncMediaOf(ownerId: string): Promise<void> {
    const ids = await this.#deps.repository.postIdsOf(ownerId);
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
