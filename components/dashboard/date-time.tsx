import { formatDateTime, formDate } from "./dates";

/**
 * A moment as text inside `<time datetime="…ISO…">`, so the exact instant stays machine-readable
 * whichever zone the text is in. `dateOnly` prints the day alone; no moment prints `fallback` ("—").
 */
export function DateTime({ iso, timeZone, dateOnly = false, long = false, fallback = "—" }: { iso: string | null | undefined; timeZone: string; dateOnly?: boolean; long?: boolean; fallback?: string }) {
  if (!iso) return <>{fallback}</>;
  return <time dateTime={iso}>{dateOnly ? formDate(iso, timeZone, { long }) : formatDateTime(iso, timeZone, { long })}</time>;
}
