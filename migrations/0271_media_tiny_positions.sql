-- Positions are kept to the centimetre (7 decimals) from now on: a GPS tag written as a double could
-- store a latitude such as 1e-170, which distances computed in SQL cannot square without an underflow
-- error. Those already stored are rounded the same way (to 0). Reads the table once.
UPDATE media SET latitude = 0 WHERE latitude <> 0 AND abs(latitude) < 5e-8;
UPDATE media SET longitude = 0 WHERE longitude <> 0 AND abs(longitude) < 5e-8;
