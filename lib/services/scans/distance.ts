/** A point on the globe in degrees. */
export interface LatLng {
  latitude: number;
  longitude: number;
}

/** The mean Earth radius (IUGG), in kilometres. */
const EARTH_RADIUS_KM = 6371.0088;

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/**
 * The great-circle distance between two points, in kilometres (haversine formula on a spherical Earth:
 * within 0.5% of the ellipsoidal distance, far finer than the city-level geo it is used with).
 */
export function greatCircleKm(a: LatLng, b: LatLng): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLng = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Clone detection (docs/decisions/0018-clone-detection-never-refuses.md): the previous scan within 5 minutes, at least 100 km away, at an
 * implied speed over 1000 km/h. (Within 5 minutes, 100 km already means 1200 km/h, so the speed rule
 * only bites if the window or the distance is ever changed; it is kept so the rule reads as written.)
 */
export const CLONE_RULES = { windowMs: 5 * 60_000, minDistanceKm: 100, minSpeedKmh: 1000 } as const;

export type CloneRules = { windowMs: number; minDistanceKm: number; minSpeedKmh: number };

/** Whether two scans `elapsedMs` apart and `distanceKm` apart are too far apart for one physical tag. */
export function isImpossibleTravel(distanceKm: number, elapsedMs: number, rules: CloneRules = CLONE_RULES): boolean {
  if (!Number.isFinite(distanceKm) || distanceKm < rules.minDistanceKm) return false;
  const elapsed = Math.max(0, elapsedMs);
  if (elapsed > rules.windowMs) return false;
  if (elapsed === 0) return true;
  return distanceKm / (elapsed / 3_600_000) > rules.minSpeedKmh;
}
