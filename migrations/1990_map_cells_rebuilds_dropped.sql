-- The map-clusters job no longer rebuilds the cells: it repairs what differs, daily, and nothing read
-- the row of its last rebuild (its report is the job run's own).
DROP TABLE map_cells_rebuilds;
