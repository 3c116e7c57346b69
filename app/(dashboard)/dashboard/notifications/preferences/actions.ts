"use server";

import { errorState, formError, formSuccess } from "@/components/forms/action-result";
import { formText, type FieldErrors, type FormState } from "@/components/forms/form-state";
import { requireUserContext } from "@/lib/auth/page-context";
import { notificationPreferencesUpdateSchema, updateNotificationPreferences } from "@/lib/services/notifications/preferences";
import { switchNames } from "./switches";

const PATH = "/dashboard/notifications/preferences";

/** The form's field for a path of the service's input. */
const fieldOfPath: Record<string, string> = { "quietHours.start": "quietStart", "quietHours.end": "quietEnd", "quietHours.timeZone": "timeZone" };

/** PUT /notifications/preferences: every switch (an unchecked box is absent from the form) and the quiet hours. */
export async function savePreferencesAction(previous: FormState, formData: FormData): Promise<FormState> {
  const ctx = await requireUserContext(PATH);
  const on = (name: string) => formData.get(name) === "on";
  const quiet = on("quietHours");
  const values: Record<string, string> = {
    quietStart: formText(formData, "quietStart"),
    quietEnd: formText(formData, "quietEnd"),
    timeZone: formText(formData, "timeZone"),
  };
  for (const name of switchNames) values[name] = on(name) ? "on" : "";
  values.quietHours = quiet ? "on" : "";

  const parsed = notificationPreferencesUpdateSchema.safeParse({
    email: { tagScanned: on("emailTagScanned"), messageReceived: on("emailMessageReceived"), statusChange: on("emailStatusChange"), marketing: on("emailMarketing") },
    push: { tagScanned: on("pushTagScanned"), messageReceived: on("pushMessageReceived"), statusChange: on("pushStatusChange") },
    quietHours: quiet ? { start: values.quietStart, end: values.quietEnd, timeZone: values.timeZone } : null,
  });
  if (!parsed.success) {
    const fieldErrors: FieldErrors = {};
    for (const issue of parsed.error.issues) {
      const field = fieldOfPath[issue.path.join(".")] ?? "quietHours";
      fieldErrors[field] = [...(fieldErrors[field] ?? []), issue.message];
    }
    return formError("Check the fields marked below.", values, fieldErrors);
  }
  try {
    await updateNotificationPreferences(ctx, parsed.data);
    return formSuccess("Your notification settings are saved.", values);
  } catch (error) {
    return errorState(error, values);
  }
}
