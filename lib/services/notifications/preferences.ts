import { z } from "zod";
import { schema } from "@/db/client";
import type { ServiceContext } from "@/lib/services/context";
import { preferencesOf } from "./queries";
import type { Preferences } from "./rules";
import { requireUser } from "@/lib/services/context";
import { ValidationError } from "@/lib/services/errors";
import { canonicalTimeZone } from "@/lib/i18n/time-zones";

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

const clockTime = z.string().regex(HH_MM, "Use 24-hour HH:MM, e.g. 22:00.").meta({ description: "Local time, 24-hour HH:MM", example: "22:00" });

/** An IANA zone name, stored as Intl spells it ("america/new_york" → "America/New_York"). */
const timeZoneInput = (description: string) =>
  z
    .string()
    .trim()
    .min(1, "Choose a time zone.")
    .max(100)
    .transform((value, context) => {
      const canonical = canonicalTimeZone(value);
      if (!canonical) {
        context.addIssue({ code: "custom", message: "Unknown time zone; use an IANA name such as Europe/Berlin." });
        return z.NEVER;
      }
      return canonical;
    })
    .meta({ description, example: "Europe/Berlin" });

const timeZoneSchema = timeZoneInput("IANA time zone of the quiet hours; it also becomes your time zone (`timeZone`)");

const quietHoursInput = z
  .object({ start: clockTime, end: clockTime, timeZone: timeZoneSchema })
  .refine((value) => value.start !== value.end, { message: "Start and end must differ.", path: ["end"] });

export const quietHoursSchema = z
  .object({ start: z.string().meta({ example: "22:00" }), end: z.string().meta({ example: "07:00" }), timeZone: z.string().meta({ example: "Europe/Berlin" }) })
  .meta({ description: "E-mail and push wait until the end of quiet hours (urgent notifications excepted); may wrap midnight." });

export const notificationPreferencesSchema = z
  .object({
    email: z.object({
      tagScanned: z.boolean(),
      messageReceived: z.boolean(),
      statusChange: z.boolean(),
      marketing: z.boolean(),
      lostPetNearby: z.boolean().meta({ description: "Lost pets near my home: an alert reached your watch area (PUT /alerts/area)" }),
    }),
    push: z.object({
      tagScanned: z.boolean(),
      messageReceived: z.boolean(),
      statusChange: z.boolean(),
      lostPetNearby: z.boolean().meta({ description: "Lost pets near my home: an alert reached your watch area (PUT /alerts/area)" }),
    }),
    quietHours: quietHoursSchema.nullable(),
    timeZone: z.string().nullable().meta({
      description:
        "Your IANA time zone: the web pages show times in it, and quiet hours are kept in it. null until you choose one (the pages then use the browser's zone). The API's own timestamps stay UTC.",
      example: "Europe/Berlin",
    }),
  })
  .meta({ id: "NotificationPreferences" });

export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/**
 * PUT /notifications/preferences: any subset; fields left out keep their value. `quietHours: null` turns
 * quiet hours off. One zone serves both the pages and the quiet hours, so `quietHours.timeZone` sets
 * `timeZone` too.
 */
export const notificationPreferencesUpdateSchema = z.object({
  email: z
    .object({
      tagScanned: z.boolean().optional(),
      messageReceived: z.boolean().optional(),
      statusChange: z.boolean().optional(),
      marketing: z.boolean().optional(),
      lostPetNearby: z.boolean().optional(),
    })
    .optional(),
  push: z
    .object({ tagScanned: z.boolean().optional(), messageReceived: z.boolean().optional(), statusChange: z.boolean().optional(), lostPetNearby: z.boolean().optional() })
    .optional(),
  quietHours: quietHoursInput.nullable().optional(),
  timeZone: timeZoneInput("Your IANA time zone, for the pages' times and the quiet hours; null to follow the browser (only while quiet hours are off)")
    .nullable()
    .optional(),
});

export type NotificationPreferencesUpdate = z.output<typeof notificationPreferencesUpdateSchema>;

export function toPreferencesView(row: Preferences): NotificationPreferences {
  return {
    email: { tagScanned: row.emailTagScanned, messageReceived: row.emailMessageReceived, statusChange: row.emailStatusChange, marketing: row.emailMarketing, lostPetNearby: row.emailLostPetNearby },
    push: { tagScanned: row.pushTagScanned, messageReceived: row.pushMessageReceived, statusChange: row.pushStatusChange, lostPetNearby: row.pushLostPetNearby },
    quietHours: row.quietHoursStart && row.quietHoursEnd ? { start: row.quietHoursStart, end: row.quietHoursEnd, timeZone: row.timeZone ?? "UTC" } : null,
    timeZone: row.timeZone,
  };
}

/** GET /notifications/preferences: the stored row, or the defaults when the user never changed anything. */
export async function getNotificationPreferences(ctx: ServiceContext): Promise<NotificationPreferences> {
  return toPreferencesView(await preferencesOf(ctx.db, requireUser(ctx).userId));
}

/** The time zone the owner chose in their settings, or null (pages then use the browser's). */
export async function savedTimeZone(ctx: ServiceContext): Promise<string | null> {
  return (await preferencesOf(ctx.db, requireUser(ctx).userId)).timeZone;
}

/** The zone after this update: quiet hours bring theirs; both given must agree; quiet hours cannot lose theirs. */
function nextTimeZone(current: string | null, input: NotificationPreferencesUpdate, quietHoursOn: boolean): string | null {
  if (input.quietHours && input.timeZone !== undefined && input.timeZone !== input.quietHours.timeZone) {
    throw ValidationError.field("timeZone", "timeZone and quietHours.timeZone differ; one time zone serves both.");
  }
  const zone = input.quietHours ? input.quietHours.timeZone : input.timeZone === undefined ? current : input.timeZone;
  if (zone === null && quietHoursOn) throw ValidationError.field("timeZone", "Quiet hours need a time zone: choose one, or turn quiet hours off.");
  return zone;
}

/** PUT /notifications/preferences: merges the subset into the current preferences and upserts the row. */
export async function updateNotificationPreferences(ctx: ServiceContext, input: NotificationPreferencesUpdate): Promise<{ message: string }> {
  const userId = requireUser(ctx).userId;
  const current = await preferencesOf(ctx.db, userId);
  const quietHoursStart = input.quietHours === undefined ? current.quietHoursStart : (input.quietHours?.start ?? null);
  const quietHoursEnd = input.quietHours === undefined ? current.quietHoursEnd : (input.quietHours?.end ?? null);
  const values = {
    emailTagScanned: input.email?.tagScanned ?? current.emailTagScanned,
    emailMessageReceived: input.email?.messageReceived ?? current.emailMessageReceived,
    emailStatusChange: input.email?.statusChange ?? current.emailStatusChange,
    emailMarketing: input.email?.marketing ?? current.emailMarketing,
    pushTagScanned: input.push?.tagScanned ?? current.pushTagScanned,
    pushMessageReceived: input.push?.messageReceived ?? current.pushMessageReceived,
    pushStatusChange: input.push?.statusChange ?? current.pushStatusChange,
    emailLostPetNearby: input.email?.lostPetNearby ?? current.emailLostPetNearby,
    pushLostPetNearby: input.push?.lostPetNearby ?? current.pushLostPetNearby,
    quietHoursStart,
    quietHoursEnd,
    timeZone: nextTimeZone(current.timeZone, input, Boolean(quietHoursStart && quietHoursEnd)),
  };
  await ctx.db
    .insert(schema.notificationPreferences)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: schema.notificationPreferences.userId, set: { ...values, updatedAt: new Date() } });
  return { message: "Notification preferences updated." };
}
