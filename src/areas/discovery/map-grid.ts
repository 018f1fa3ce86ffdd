/**
 * The map's grid. At zoom z (0 to 22, as web maps count) a cell is 45 / 2^z degrees on each side, in
 * latitude from -90 and in longitude from -180: a map view at zoom z, about 360 / 2^z degrees wide,
 * is about 8 cells across. Levels 0 to `precomputedZoom` are kept in map_cells; deeper zooms are
 * clustered live over the few media of a small box.
 *
 * 12 (cells of about 1.2 km) so that a city's view reads precomputed cells: clustering a city of a
 * thousand media live cost PostgreSQL about three times what reading its cells does (docs/benchmarks.md).
 * Boxes of a couple of kilometres (zoom 13 and deeper) hold few media and are counted live.
 */
export const maxZoom = 22;
export const precomputedZoom = 12;

export const cellDegrees = (zoom: number): number => 45 / 2 ** zoom;

export interface Box {
  south: number;
  west: number;
  north: number;
  east: number;
}

/** Whether the box crosses the antimeridian (west > east: it runs from west to 180, then -180 to east). */
export const crossesAntimeridian = (box: Box): boolean => box.west > box.east;

/** The zoom a map shows this box at, when the client does not say: the box's width fits about one view. */
export function zoomForBox(box: Box): number {
  const width = crossesAntimeridian(box) ? 360 - box.west + box.east : box.east - box.west;
  const height = box.north - box.south;
  const span = Math.max(width, height * 2, 1e-9);
  return Math.min(maxZoom, Math.max(0, Math.floor(Math.log2(360 / span))));
}

export const cellIndex = (degreesFromOrigin: number, zoom: number): number =>
  Math.floor(degreesFromOrigin / cellDegrees(zoom));

/** The cells' index ranges a box covers at a zoom: rows, and one or two column ranges. */
interface ColumnSpan {
  from: number;
  to: number;
}

export function cellRanges(box: Box, zoom: number) {
  const lastColumn = 2 ** (zoom + 3) - 1;
  const lastRow = 2 ** (zoom + 2) - 1;
  const column = (longitude: number) => Math.min(lastColumn, cellIndex(longitude + 180, zoom));
  const row = (latitude: number) => Math.min(lastRow, cellIndex(latitude + 90, zoom));
  const rows = { from: row(box.south), to: row(box.north) };
  const columns: [ColumnSpan] | [ColumnSpan, ColumnSpan] = crossesAntimeridian(box)
    ? [
        { from: column(box.west), to: lastColumn },
        { from: 0, to: column(box.east) },
      ]
    : [{ from: column(box.west), to: column(box.east) }];
  return { rows, columns };
}

/** The bounds of one cell. */
export function cellBounds(zoom: number, cellY: number, cellX: number): Box {
  const size = cellDegrees(zoom);
  return {
    south: cellY * size - 90,
    west: cellX * size - 180,
    north: Math.min(90, (cellY + 1) * size - 90),
    east: Math.min(180, (cellX + 1) * size - 180),
  };
}
