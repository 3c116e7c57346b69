"use server";

import { revalidatePath } from "next/cache";
import { formError, formSuccess } from "@/lib/forms/action-result";
import { formText, type FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { readSignedNumber } from "@/lib/forms/signed-number";
import { alertEndpoints } from "@/lib/http/endpoints/alerts";
import { canonicalTimeZone, instantOfLocalDateTime } from "@/lib/i18n/time-zones";
import { raiseLostAlert } from "@/lib/services/alerts";
import { ConflictError, RateLimitError } from "@/lib/services/errors";
import { tagPath } from "./tag-form";

const VALUES = ["latitude", "longitude", "lastSeenAt", "radiusKm", "note"] as const;

/**
 * The datetime-local field as the API's ISO time: read on the wall clock of the zone the page showed it in
 * (its hidden `timeZone`, the owner's own, UTC when unknown). Blank is now; a value that is not a date and
 * time stays text for the schema to refuse.
 */
function lastSeenAt(formData: FormData): string | undefined {
  const text = formText(formData, "lastSeenAt").trim();
  if (text === "") return undefined;
  const zone = canonicalTimeZone(formText(formData, "timeZone")) ?? "UTC";
  return instantOfLocalDateTime(text, zone)?.toISOString() ?? text;
}

function hoursAndMinutes(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  if (minutes < 90) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  const hours = Math.round(minutes / 60);
  return `about ${hours} hour${hours === 1 ? "" : "s"}`;
}

/**
 * "Alert people nearby" from lost mode: POST /tags/{id}/lost-alert's contract and service. Its refusals are
 * the form's messages: 409 (not a pet, not lost any more) and 429 (three alerts in 24 hours).
 */
export const raiseLostAlertAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  alertEndpoints.raise,
  {
    fields: { id: "tagId" },
    returnTo: tagPath,
    read: (formData) => ({
      latitude: readSignedNumber(formData, "latitude"),
      longitude: readSignedNumber(formData, "longitude"),
      lastSeenAt: lastSeenAt(formData),
      radiusKm: readSignedNumber(formData, "radiusKm"),
      note: formText(formData, "note"),
    }),
    values: VALUES,
    invalidMessage: "Check the fields marked below: choose where it was last seen on the map (or type the coordinates).",
    onError: (error, values) => {
      if (error instanceof RateLimitError) return formError(`You have sent 3 alerts for this pet in the last 24 hours. The next one is possible in ${hoursAndMinutes(error.retryAfterSeconds)}.`, values);
      if (error instanceof ConflictError) return formError("Only a pet in lost mode can be announced to people nearby. Reload the page to see its status.", values);
      return undefined;
    },
  },
  async ({ ctx, params, input }) => {
    const created = await raiseLostAlert(ctx, params.id, input);
    revalidatePath(`/dashboard/tags/${params.id}`);
    const people = created.recipients === 1 ? "1 person" : `${created.recipients} people`;
    return formSuccess(created.recipients === 0 ? "Your alert is up, but nobody watches that area yet. Share its page with your neighbours." : `Sent to ${people} nearby.`);
  },
);
