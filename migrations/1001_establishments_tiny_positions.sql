-- Positions are kept to the centimetre (7 decimals) from now on: an import could store a latitude
-- such as 1e-170, which the haversine distance of a near list cannot square without an underflow
-- error. Those already stored are rounded the same way (to 0).
UPDATE establishments SET latitude = 0 WHERE latitude <> 0 AND abs(latitude) < 5e-8;
UPDATE establishments SET longitude = 0 WHERE longitude <> 0 AND abs(longitude) < 5e-8;
