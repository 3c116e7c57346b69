/** 17 characters, letters and digits without I, O and Q (ISO 3779); case-insensitive, stored upper case. */
export const VIN_PATTERN = /^[A-HJ-NPR-Z0-9]{17}$/;
/** A VIN as typed may group its characters with spaces or hyphens: room for them around the 17. */
export const VIN_INPUT_MAX = 25;
export const VIN_MESSAGE = "A VIN is 17 letters and digits, without I, O or Q.";

/**
 * The one form of a VIN that is stored and compared: upper case, without the spaces and hyphens people type
 * between groups, so "1hgcm8-2633a 004352" and "1HGCM82633A004352" are one VIN (one claim, one check).
 */
export function canonicalVin(raw: string): string {
  return raw.replace(/[\s-]+/g, "").toUpperCase();
}
