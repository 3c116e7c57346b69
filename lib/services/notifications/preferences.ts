import { z } from "zod";
import { schema } from "@/db/client";
import type { ServiceContext } from "@/lib/services/context";
import { preferencesOf } from "./queries";
import type { Preferences } from "./rules";
import { requireUser } from "@/lib/services/context";

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

const clockTime = z.string().regex(HH_MM, "Use 24-hour HH:MM, e.g. 22:00.").meta({ description: "Local time, 24-hour HH:MM", example: "22:00" });

/** The IANA name as Intl spells it, or null when Intl does not know the zone. */
export function canonicalTimeZone(timeZone: string): string | null {
  // Offsets ("+01:00") are accepted by newer Intl versions but are not IANA zone names.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(timeZone)) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

const timeZoneSchema = z
  .string()
  .trim()
  .min(1, "Required.")
  .max(100)
  .transform((value, context) => {
    const canonical = canonicalTimeZone(value);
    if (!canonical) {
      context.addIssue({ code: "custom", message: "Unknown time zone; use an IANA name such as Europe/Berlin." });
      return z.NEVER;
    }
    return canonical;
  })
  .meta({ description: "IANA time zone of the quiet hours", example: "Europe/Berlin" });

const quietHoursInput = z
  .object({ start: clockTime, end: clockTime, timeZone: timeZoneSchema })
  .refine((value) => value.start !== value.end, { message: "Start and end must differ.", path: ["end"] });

export const quietHoursSchema = z
  .object({ start: z.string().meta({ example: "22:00" }), end: z.string().meta({ example: "07:00" }), timeZone: z.string().meta({ example: "Europe/Berlin" }) })
  .meta({ description: "E-mail and push wait until the end of quiet hours (urgent notifications excepted); may wrap midnight." });

export const notificationPreferencesSchema = z
  .object({
    email: z.object({ tagScanned: z.boolean(), messageReceived: z.boolean(), statusChange: z.boolean(), marketing: z.boolean() }),
    push: z.object({ tagScanned: z.boolean(), messageReceived: z.boolean(), statusChange: z.boolean() }),
    quietHours: quietHoursSchema.nullable(),
  })
  .meta({ id: "NotificationPreferences" });

export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/** PUT /notifications/preferences: any subset; fields left out keep their value. `quietHours: null` turns quiet hours off. */
export const notificationPreferencesUpdateSchema = z.object({
  email: z
    .object({ tagScanned: z.boolean().optional(), messageReceived: z.boolean().optional(), statusChange: z.boolean().optional(), marketing: z.boolean().optional() })
    .optional(),
  push: z.object({ tagScanned: z.boolean().optional(), messageReceived: z.boolean().optional(), statusChange: z.boolean().optional() }).optional(),
  quietHours: quietHoursInput.nullable().optional(),
});

export type NotificationPreferencesUpdate = z.output<typeof notificationPreferencesUpdateSchema>;

export function toPreferencesView(row: Preferences): NotificationPreferences {
  return {
    email: { tagScanned: row.emailTagScanned, messageReceived: row.emailMessageReceived, statusChange: row.emailStatusChange, marketing: row.emailMarketing },
    push: { tagScanned: row.pushTagScanned, messageReceived: row.pushMessageReceived, statusChange: row.pushStatusChange },
    quietHours: row.quietHoursStart && row.quietHoursEnd ? { start: row.quietHoursStart, end: row.quietHoursEnd, timeZone: row.timeZone } : null,
  };
}

/** GET /notifications/preferences: the stored row, or the defaults when the user never changed anything. */
export async function getNotificationPreferences(ctx: ServiceContext): Promise<NotificationPreferences> {
  return toPreferencesView(await preferencesOf(ctx.db, requireUser(ctx).userId));
}

/** PUT /notifications/preferences: merges the subset into the current preferences and upserts the row. */
export async function updateNotificationPreferences(ctx: ServiceContext, input: NotificationPreferencesUpdate): Promise<{ message: string }> {
  const userId = requireUser(ctx).userId;
  const current = await preferencesOf(ctx.db, userId);
  const values = {
    emailTagScanned: input.email?.tagScanned ?? current.emailTagScanned,
    emailMessageReceived: input.email?.messageReceived ?? current.emailMessageReceived,
    emailStatusChange: input.email?.statusChange ?? current.emailStatusChange,
    emailMarketing: input.email?.marketing ?? current.emailMarketing,
    pushTagScanned: input.push?.tagScanned ?? current.pushTagScanned,
    pushMessageReceived: input.push?.messageReceived ?? current.pushMessageReceived,
    pushStatusChange: input.push?.statusChange ?? current.pushStatusChange,
    quietHoursStart: input.quietHours === undefined ? current.quietHoursStart : (input.quietHours?.start ?? null),
    quietHoursEnd: input.quietHours === undefined ? current.quietHoursEnd : (input.quietHours?.end ?? null),
    timeZone: input.quietHours ? input.quietHours.timeZone : current.timeZone,
  };
  await ctx.db
    .insert(schema.notificationPreferences)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: schema.notificationPreferences.userId, set: { ...values, updatedAt: new Date() } });
  return { message: "Notification preferences updated." };
}
