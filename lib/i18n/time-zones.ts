/**
 * Time zones as IANA names (Europe/Berlin), validated by the server's Intl. Pure functions: the
 * preferences service, the pages' formatter and the viewer's zone (lib/http/viewer-time-zone.ts) share them.
 */

/** The zone every time falls back to when nothing better is known (or a stored one is no longer valid). */
export const FALLBACK_TIME_ZONE = "UTC";

/** The IANA name as Intl spells it, or null when Intl does not know the zone. */
export function canonicalTimeZone(timeZone: string): string | null {
  // Offsets ("+01:00") are accepted by newer Intl versions but are not IANA zone names.
  if (timeZone.length > 100 || !/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(timeZone)) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** `timeZone` when Intl knows it, else UTC: a display never fails on a bad zone. */
export function usableTimeZone(timeZone: string | null | undefined): string {
  return (timeZone && canonicalTimeZone(timeZone)) || FALLBACK_TIME_ZONE;
}

const partsFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock fields of `date` in `timeZone` (24-hour). */
function wallClock(date: Date, timeZone: string) {
  let format = partsFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
    partsFormats.set(timeZone, format);
  }
  const field = (type: Intl.DateTimeFormatPartTypes) => Number(format.formatToParts(date).find((part) => part.type === type)?.value ?? 0);
  return { year: field("year"), month: field("month"), day: field("day"), hour: field("hour"), minute: field("minute"), second: field("second") };
}

/** How far `timeZone`'s wall clock is ahead of UTC at `date`, in milliseconds (whole seconds). */
function offsetMs(date: Date, timeZone: string): number {
  const wall = wallClock(date, timeZone);
  const wallAsUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return wallAsUtc - Math.floor(date.getTime() / 1000) * 1000;
}

/** "2026-03-12": the calendar day `date` falls on in `timeZone`. */
export function localDate(date: Date, timeZone: string): string {
  const wall = wallClock(date, usableTimeZone(timeZone));
  return `${String(wall.year).padStart(4, "0")}-${String(wall.month).padStart(2, "0")}-${String(wall.day).padStart(2, "0")}`;
}

/**
 * The last millisecond of the day `day` ("YYYY-MM-DD") in `timeZone`: 23:59:59.999 on that wall clock.
 * Guess with the offset at the UTC reading, then correct once with the offset at the guess (a DST
 * change on that day moves it); 23:59:59 is never skipped by a DST change in the zones Intl knows.
 */
export function endOfLocalDay(day: string, timeZone: string): Date {
  const zone = usableTimeZone(timeZone);
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const wallAsUtc = Date.UTC(year, month - 1, date, 23, 59, 59, 999);
  const first = wallAsUtc - offsetMs(new Date(wallAsUtc), zone);
  const second = wallAsUtc - offsetMs(new Date(first), zone);
  return new Date(second);
}

/** "2026-03-12T14:05": `date` on `timeZone`'s wall clock, as a datetime-local input shows it. */
export function localDateTimeInput(date: Date, timeZone: string): string {
  const wall = wallClock(date, usableTimeZone(timeZone));
  const two = (value: number) => String(value).padStart(2, "0");
  return `${String(wall.year).padStart(4, "0")}-${two(wall.month)}-${two(wall.day)}T${two(wall.hour)}:${two(wall.minute)}`;
}

/**
 * The instant a datetime-local value ("2026-03-12T14:05", seconds optional) names on `timeZone`'s wall
 * clock, or null for anything else. Guessed with the offset at the UTC reading, then corrected once with the
 * offset at the guess, as endOfLocalDay does; a time a DST change skips reads as the one after it.
 */
export function instantOfLocalDateTime(value: string, timeZone: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const zone = usableTimeZone(timeZone);
  const wallAsUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  if (new Date(wallAsUtc).getUTCDate() !== day) return null;
  const first = wallAsUtc - offsetMs(new Date(wallAsUtc), zone);
  return new Date(wallAsUtc - offsetMs(new Date(first), zone));
}
