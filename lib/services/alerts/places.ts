/**
 * How precise a place is where it is kept or shown (docs/alerts.md): a watched area is stored on a grid
 * of ~100 m (3 decimals of a degree: 111 m of latitude), and a lost pet's last-seen place is shown on
 * public pages on a grid of ~500 m (0.005°: 555 m of latitude, less of longitude away from the equator).
 */
const roundTo = (value: number, step: number) => Math.round(value / step) * step;
const clean = (value: number) => Number(value.toFixed(6));

export function storedAreaPoint(latitude: number, longitude: number): { latitude: number; longitude: number } {
  return { latitude: clean(roundTo(latitude, 0.001)), longitude: clean(roundTo(longitude, 0.001)) };
}

export function publicLastSeenPoint(latitude: number, longitude: number): { latitude: number; longitude: number } {
  return { latitude: clean(roundTo(latitude, 0.005)), longitude: clean(roundTo(longitude, 0.005)) };
}

/** "about 1.2 km" / "about 300 m": how far, never more precise than the rounding above. */
export function aboutDistance(metres: number): string {
  if (metres < 950) return `about ${Math.max(100, roundTo(metres, 100))} m`;
  return `about ${(roundTo(metres, 100) / 1000).toFixed(1).replace(/\.0$/, "")} km`;
}
