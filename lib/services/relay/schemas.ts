import { z } from "zod";
import { CLOCK_TIME } from "./quiet-hours";

/** POST /auth/phone. */
export const requestPhoneCodeInput = z.object({
  phone: z.string().trim().min(1, "Required.").max(40).meta({ description: "The number in international form (+49 151 23456789), or national with `country`", example: "+14155552671" }),
  country: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, "Use a two-letter country code, e.g. DE.")
    .optional()
    .meta({ description: "ISO 3166 alpha-2 country of a number written in national form", example: "US" }),
});

export const phoneCodeSentSchema = z
  .object({
    message: z.string(),
    lastDigits: z.string().meta({ description: "The last 2 digits of the number the code went to", example: "71" }),
    expiresAt: z.iso.datetime(),
  })
  .meta({ id: "PhoneCodeSent" });

/** POST /auth/phone/verify. */
export const verifyPhoneCodeInput = z.object({
  code: z.string().trim().regex(/^\d{6}$/, "Enter the 6-digit code.").meta({ example: "123456" }),
});

export const verifiedPhoneSchema = z
  .object({
    lastDigits: z.string().meta({ description: "All that is ever shown of the number: its last 2 digits", example: "71" }),
    verifiedAt: z.iso.datetime(),
  })
  .meta({ id: "VerifiedPhone" });

const clockTime = z.string().regex(CLOCK_TIME, "Use 24-hour HH:MM, e.g. 22:00.").meta({ description: "Local time in your time zone, 24-hour HH:MM", example: "22:00" });

export const relayQuietHoursInput = z
  .object({ from: clockTime, to: clockTime.meta({ example: "07:00" }) })
  .refine((value) => value.from !== value.to, { message: "From and to must differ.", path: ["to"] });

/** PATCH /tags/:id/relay. */
export const updateRelayInput = z.object({
  enabled: z.boolean().meta({ description: "Finders can call or text you through the relay" }),
  quietHours: relayQuietHoursInput.nullable().optional().meta({ description: "When calls are not put through (may wrap midnight); null clears them, absent keeps them" }),
});

export const relaySettingsSchema = z
  .object({
    enabled: z.boolean(),
    number: z.string().meta({ description: "The relay's number (E.164) finders call or text", example: "+15005550006" }),
    pin: z.string().nullable().meta({ description: "The tag's 6-digit relay PIN while the relay is on, else null", example: "482913" }),
    quietHours: z
      .object({
        from: z.string().meta({ example: "22:00" }),
        to: z.string().meta({ example: "07:00" }),
        timeZone: z.string().meta({ description: "The zone they are kept in: your notification preferences' time zone, UTC until you choose one", example: "Europe/Berlin" }),
      })
      .nullable(),
  })
  .meta({ id: "TagRelaySettings" });

export const devPhoneQuery = z.object({
  number: z.string().trim().regex(/^\+[1-9]\d{6,14}$/, "Use E.164, e.g. +15005550006."),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

export const devPhoneDelivery = z.object({
  sid: z.string(),
  kind: z.enum(["sms", "call"]),
  from: z.string(),
  to: z.string(),
  body: z.string().nullable(),
  createdAt: z.iso.datetime(),
});

export type UpdateRelayInput = z.infer<typeof updateRelayInput>;
export type RelaySettings = z.infer<typeof relaySettingsSchema>;
export type DevPhoneDelivery = z.infer<typeof devPhoneDelivery>;
