-- The GiST indexes on ll_to_earth(latitude, longitude) could not be rebuilt by pg_restore: earthdistance's
-- ll_to_earth is a SQL function whose body names `cube`, `earth()` and the `earth` type unqualified, and a
-- restore runs with an empty search_path ("type earth does not exist"; PostgreSQL 18's earthdistance 1.2
-- fixes it upstream). earth_point computes the same point with a SQL-standard body (PostgreSQL 14+), bound
-- to the objects when it is created, so it works whatever the search_path; the indexes move onto it and the
-- queries use it on the indexed columns.
CREATE FUNCTION earth_point(lat double precision, lon double precision) RETURNS earth
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN cube(cube(cube(earth() * cos(radians(lat)) * cos(radians(lon))), earth() * cos(radians(lat)) * sin(radians(lon))), earth() * sin(radians(lat)))::earth;--> statement-breakpoint
DROP INDEX IF EXISTS "alert_areas_earth_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "found_reports_earth_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "lost_pet_alerts_open_earth_idx";--> statement-breakpoint
CREATE INDEX "alert_areas_earth_idx" ON "alert_areas" USING gist (earth_point("latitude", "longitude"));--> statement-breakpoint
CREATE INDEX "found_reports_earth_idx" ON "found_reports" USING gist (earth_point("latitude", "longitude"));--> statement-breakpoint
CREATE INDEX "lost_pet_alerts_open_earth_idx" ON "lost_pet_alerts" USING gist (earth_point("latitude", "longitude")) WHERE "lost_pet_alerts"."closed_at" is null and "lost_pet_alerts"."removed_at" is null;
