-- Discovery: the map's clusters, precomputed per zoom level from the publicly placed media (see
-- src/areas/discovery/map-grid.ts for the grid). Rebuilt whole by the map-clusters job; a reader of
-- the map at a zoom where clusters are shown reads a few dozen rows of one level.
CREATE TABLE map_cells (
  zoom smallint NOT NULL,
  cell_y integer NOT NULL,
  cell_x integer NOT NULL,
  media_count integer NOT NULL,
  -- The centre of the cell's media (their mean position), where the cluster is drawn.
  latitude double precision NOT NULL,
  longitude double precision NOT NULL,
  -- The cell's most liked media at rebuild time, shown on the cluster.
  representative_id uuid NOT NULL,
  representative_likes integer NOT NULL,
  PRIMARY KEY (zoom, cell_y, cell_x)
);

-- One row: when the cells were last rebuilt.
CREATE TABLE map_cells_rebuilds (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  rebuilt_at timestamptz NOT NULL,
  media_count integer NOT NULL
);
