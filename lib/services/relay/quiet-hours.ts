/**
 * Quiet hours of the relay (docs/relay.md): "HH:MM" wall-clock times in the owner's time zone, which may
 * wrap midnight (22:00–07:00). Pure, so part 2's webhooks and the tests share one rule.
 */
export interface RelayQuietHours {
  from: string;
  to: string;
}

export const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

const formats = new Map<string, Intl.DateTimeFormat>();

/** Minutes since local midnight at `now` in `timeZone`. */
function localMinutes(now: Date, timeZone: string): number {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    formats.set(timeZone, format);
  }
  const parts = format.formatToParts(now);
  const field = (type: "hour" | "minute") => Number(parts.find((part) => part.type === type)?.value ?? 0);
  return field("hour") * 60 + field("minute");
}

/**
 * True when `now` falls inside the quiet hours on the owner's clock: from `from` (included) to `to`
 * (excluded). No quiet hours, or from = to, is never quiet.
 */
export function isInsideQuietHours(now: Date, quietHours: RelayQuietHours | null, timeZone: string): boolean {
  if (!quietHours || quietHours.from === quietHours.to) return false;
  const current = localMinutes(now, timeZone);
  const from = minutesOf(quietHours.from);
  const to = minutesOf(quietHours.to);
  return from < to ? current >= from && current < to : current >= from || current < to;
}
