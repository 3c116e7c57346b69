"use server";

import { formSuccess } from "@/lib/forms/action-result";
import { formText, type FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { notificationPreferencesUpdateSchema, updateNotificationPreferences } from "@/lib/services/notifications";
import { switchNames } from "./switches";

const on = (formData: FormData, name: string) => formData.get(name) === "on";

/**
 * PUT /notifications/preferences: every switch (an unchecked box is absent from the form), the time zone
 * ("" follows the browser) and the quiet hours, which use that zone.
 */
export const savePreferencesAction: (previous: FormState, formData: FormData) => Promise<FormState> = action(
  {
    auth: "user",
    returnTo: "/dashboard/notifications/preferences",
    input: notificationPreferencesUpdateSchema,
    read: (formData) => ({
      email: { tagScanned: on(formData, "emailTagScanned"), messageReceived: on(formData, "emailMessageReceived"), statusChange: on(formData, "emailStatusChange"), marketing: on(formData, "emailMarketing") },
      push: { tagScanned: on(formData, "pushTagScanned"), messageReceived: on(formData, "pushMessageReceived"), statusChange: on(formData, "pushStatusChange") },
      quietHours: on(formData, "quietHours") ? { start: formText(formData, "quietStart"), end: formText(formData, "quietEnd"), timeZone: formText(formData, "timeZone") } : null,
      timeZone: formText(formData, "timeZone").trim() || null,
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
  async ({ ctx, input, values }) => {
    await updateNotificationPreferences(ctx, input);
    return formSuccess("Your notification settings are saved.", values);
  },
);
