/**
 * Links to a place that work without JavaScript and without our map: the static fallback of the owner's
 * maps and the finder's shared locations. Pure functions, shared by server pages and the map component.
 */

/** Five decimals: about a metre, finer than any phone's fix, and short enough to read. */
export function formatCoordinate(value: number): string {
  return value.toFixed(5);
}

/** "52.52000, 13.40500": a place as people read and type it (latitude first). */
export function formatPlace(latitude: number, longitude: number): string {
  return `${formatCoordinate(latitude)}, ${formatCoordinate(longitude)}`;
}

/** A link to the exact place on openstreetmap.org, with a pin, zoomed to street level. */
export function openStreetMapUrl(latitude: number, longitude: number): string {
  const lat = formatCoordinate(latitude);
  const lon = formatCoordinate(longitude);
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=17/${lat}/${lon}`;
}

/**
 * A geo: URI (RFC 5870): the phone's own maps app opens it. No `;u=` uncertainty: several maps apps
 * refuse or misread a URI that carries one, and the accuracy is written beside the link anyway.
 */
export function geoUri(latitude: number, longitude: number): string {
  return `geo:${formatCoordinate(latitude)},${formatCoordinate(longitude)}`;
}

/** OpenStreetMap's tiles and the attribution their licence asks for (ODbL: name and link the copyright page). */
export const OSM_TILES = {
  url: "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
  attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
  maxZoom: 19,
} as const;
