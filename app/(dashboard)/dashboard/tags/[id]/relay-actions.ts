"use server";

import { revalidatePath } from "next/cache";
import { formError, formSuccess } from "@/lib/forms/action-result";
import { formText, type FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { relayEndpoints } from "@/lib/http/endpoints/relay";
import { ConflictError } from "@/lib/services/errors";
import { PHONE_NOT_VERIFIED, RELAY_OFF, regenerateRelayPin, updateRelaySettings } from "@/lib/services/relay";
import { tagPath } from "./tag-form";

type FormAction = (previous: FormState, formData: FormData) => Promise<FormState>;

const relayValues = (formData: FormData) => ({ enabled: formText(formData, "enabled"), quietFrom: formText(formData, "quietFrom"), quietTo: formText(formData, "quietTo") });

/** The two refusals of the relay's 409, in the page's words (the API tells them apart by `details.reason`). */
function relayConflict(error: unknown, values: Record<string, string> | undefined): FormState | undefined {
  if (!(error instanceof ConflictError)) return undefined;
  const reason = (error.details as { reason?: string } | undefined)?.reason;
  if (reason === PHONE_NOT_VERIFIED) return formError("Verify your phone number first, in your account settings: the relay puts finders through to it.", values);
  if (reason === RELAY_OFF) return formError("Turn the relay on first: a PIN is given only while it is on.", values);
  return undefined;
}

/**
 * PATCH /tags/{id}/relay from the tag page: on or off, and quiet hours (both times, or neither to clear
 * them). The form always sends its quiet hours, so empty fields clear them rather than keep them.
 */
export const updateTagRelayAction: FormAction = action.for(
  relayEndpoints.updateTagRelay,
  {
    fields: { id: "tagId" },
    returnTo: tagPath,
    read: (formData) => {
      const from = formText(formData, "quietFrom").trim();
      const to = formText(formData, "quietTo").trim();
      return { enabled: formText(formData, "enabled") === "true", quietHours: from || to ? { from, to } : null };
    },
    fieldMap: { "quietHours.from": "quietFrom", "quietHours.to": "quietTo", quietHours: "quietFrom" },
    values: relayValues,
    onError: relayConflict,
  },
  async ({ ctx, params, input }) => {
    const saved = await updateRelaySettings(ctx, params.id, input);
    revalidatePath(`/dashboard/tags/${params.id}`);
    const values = { enabled: saved.enabled ? "true" : "", quietFrom: saved.quietHours?.from ?? "", quietTo: saved.quietHours?.to ?? "" };
    return formSuccess(saved.enabled ? `The relay is on. Finders call or text ${saved.number} with the PIN ${saved.pin ?? ""}.` : "The relay is off: finders see no phone number for this tag.", values);
  },
);

/** POST /tags/{id}/relay/pin from the tag page: the old PIN stops working at once. */
export const regenerateRelayPinAction: FormAction = action.for(
  relayEndpoints.regenerateRelayPin,
  { fields: { id: "tagId" }, returnTo: tagPath, onError: relayConflict },
  async ({ ctx, params }) => {
    const saved = await regenerateRelayPin(ctx, params.id);
    revalidatePath(`/dashboard/tags/${params.id}`);
    return formSuccess(`The new PIN is ${saved.pin ?? ""}. The old one no longer works; printed notes with it need the new one.`);
  },
);
