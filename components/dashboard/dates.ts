import { usableTimeZone } from "@/lib/i18n/time-zones";

/**
 * How pages print a moment: in the viewer's time zone (lib/http/viewer-time-zone.ts: the zone saved in
 * their notification settings, else their browser's, else UTC), with the zone's short name so a reader
 * never has to guess ("12 Mar 2026, 15:05 CET", "12 Mar 2026, 23:05 GMT+9"). The API keeps UTC ISO 8601.
 */

type Length = { long?: boolean };

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(kind: "date" | "dateTime", timeZone: string, long: boolean): Intl.DateTimeFormat {
  const zone = usableTimeZone(timeZone);
  const key = `${kind}|${long ? "long" : "short"}|${zone}`;
  let format = formats.get(key);
  if (!format) {
    const day: Intl.DateTimeFormatOptions = { day: "numeric", month: long ? "long" : "short", year: "numeric", timeZone: zone };
    format = new Intl.DateTimeFormat("en-GB", kind === "date" ? day : { ...day, hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" });
    formats.set(key, format);
  }
  return format;
}

function parse(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "12 Mar 2026, 15:05 CET" (long: "12 March 2026 at 15:05 CET"); "—" for no time. An unknown zone prints UTC. */
export function formatDateTime(iso: string | null | undefined, timeZone: string, { long = false }: Length = {}): string {
  const date = parse(iso);
  return date ? formatFor("dateTime", timeZone, long).format(date) : "—";
}

/** "12 Mar 2026" (long: "12 March 2026"), the day in `timeZone`; "—" for no date. */
export function formDate(iso: string | null | undefined, timeZone: string, { long = false }: Length = {}): string {
  const date = parse(iso);
  return date ? formatFor("date", timeZone, long).format(date) : "—";
}
