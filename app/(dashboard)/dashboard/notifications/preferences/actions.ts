"use server";

import { formSuccess } from "@/lib/forms/action-result";
import { formText, type FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { notificationEndpoints } from "@/lib/http/endpoints/notifications";
import { updateNotificationPreferences } from "@/lib/services/notifications";
import { switchNames } from "./switches";

const on = (formData: FormData, name: string) => formData.get(name) === "on";

/**
 * The zone to save: the one chosen, or "" for "this browser's zone". Quiet hours need a real zone, so
 * with them on, "this browser's zone" means the zone it reported (the form's `browserZone`, from the tz
 * cookie), which is then saved; with no such zone (no JavaScript) the form asks for one.
 */
function zoneToSave(formData: FormData): { zone: string; fromBrowser: boolean } {
  const chosen = formText(formData, "timeZone").trim();
  if (chosen || !on(formData, "quietHours")) return { zone: chosen, fromBrowser: false };
  const browser = formText(formData, "browserZone").trim();
  return { zone: browser, fromBrowser: browser !== "" };
}

/**
 * PUT /notifications/preferences: every switch (an unchecked box is absent from the form), the time zone
 * ("" follows the browser) and the quiet hours, which use that zone.
 */
export const savePreferencesAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  notificationEndpoints.putPreferences,
  {
    returnTo: "/dashboard/notifications/preferences",
    read: (formData) => ({
      email: {
        tagScanned: on(formData, "emailTagScanned"),
        messageReceived: on(formData, "emailMessageReceived"),
        statusChange: on(formData, "emailStatusChange"),
        marketing: on(formData, "emailMarketing"),
        lostPetNearby: on(formData, "emailLostPetNearby"),
      },
      push: {
        tagScanned: on(formData, "pushTagScanned"),
        messageReceived: on(formData, "pushMessageReceived"),
        statusChange: on(formData, "pushStatusChange"),
        lostPetNearby: on(formData, "pushLostPetNearby"),
      },
      quietHours: on(formData, "quietHours") ? { start: formText(formData, "quietStart"), end: formText(formData, "quietEnd"), timeZone: zoneToSave(formData).zone } : null,
      timeZone: zoneToSave(formData).zone || null,
    }),
    values: (formData) => {
      const values: Record<string, string> = { quietStart: formText(formData, "quietStart"), quietEnd: formText(formData, "quietEnd"), timeZone: formText(formData, "timeZone") };
      for (const name of switchNames) values[name] = on(formData, name) ? "on" : "";
      values.quietHours = on(formData, "quietHours") ? "on" : "";
      return values;
    },
    // The form's field for each path of the service's input; anything else about quiet hours goes under the switch.
    fieldMap: { "quietHours.start": "quietStart", "quietHours.end": "quietEnd", "quietHours.timeZone": "timeZone" },
  },
  async ({ ctx, input, values, formData }) => {
    await updateNotificationPreferences(ctx, input);
    const saved = { ...values, timeZone: input.timeZone ?? "" };
    if (!zoneToSave(formData).fromBrowser) return formSuccess("Your notification settings are saved.", saved);
    return formSuccess(`Your notification settings are saved. Quiet hours need a time zone, so this browser's, ${input.timeZone?.replaceAll("_", " ")}, is now yours.`, saved);
  },
);
