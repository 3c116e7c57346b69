"use server";

import { revalidatePath } from "next/cache";
import { formSuccess } from "@/lib/forms/action-result";
import type { FormState } from "@/lib/forms/form-state";
import { action, rowAction, whenNotFound } from "@/lib/forms/action";
import { emergencyEndpoints } from "@/lib/http/endpoints/emergency";
import { addEmergencyContact, deleteEmergencyContact, emergencyContactInput, putEmergencyProfile, updateEmergencyContact } from "@/lib/services/emergency";
import { EMERGENCY_FIELD_NAMES, EMERGENCY_PATH, readEmergencyForm } from "./emergency-form";

/** PUT /emergency: the whole profile as the form shows it. */
export const saveEmergencyProfileAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  emergencyEndpoints.put,
  { returnTo: EMERGENCY_PATH, read: readEmergencyForm, values: EMERGENCY_FIELD_NAMES },
  async ({ ctx, input, values }) => {
    await putEmergencyProfile(ctx, input);
    revalidatePath(EMERGENCY_PATH);
    return formSuccess("Your emergency information is saved.", values);
  },
);

const CONTACT_FIELDS = Object.keys(emergencyContactInput.shape);

/** POST /emergency/contacts. The form empties itself after a success, ready for another. */
export const addEmergencyContactAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  emergencyEndpoints.addContact,
  { returnTo: EMERGENCY_PATH, values: CONTACT_FIELDS },
  async ({ ctx, input }) => {
    const contact = await addEmergencyContact(ctx, input);
    revalidatePath(EMERGENCY_PATH);
    return formSuccess(`${contact.name} was added.`);
  },
);

/**
 * PATCH /emergency/contacts/:id with every field of the form, read by the contact schema itself: the
 * form always sends all of them, so a cleared name is "Required" rather than "unchanged", and a blank
 * e-mail removes it.
 */
export const updateEmergencyContactAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  emergencyEndpoints.updateContact,
  { fields: { id: "contactId" }, returnTo: EMERGENCY_PATH, input: emergencyContactInput, values: CONTACT_FIELDS },
  async ({ ctx, params, input, values }) => {
    const contact = await updateEmergencyContact(ctx, params.id, { ...input, email: input.email ?? null });
    revalidatePath(EMERGENCY_PATH);
    return formSuccess(`${contact.name} was saved.`, values);
  },
);

/** DELETE /emergency/contacts/:id. */
export const deleteEmergencyContactAction: (formData: FormData) => Promise<void> = rowAction.for(
  emergencyEndpoints.deleteContact,
  {
    fields: { id: "contactId" },
    returnTo: EMERGENCY_PATH,
    onError: whenNotFound(`${EMERGENCY_PATH}?notice=contact-missing#contacts-heading`),
    revalidate: () => revalidatePath(EMERGENCY_PATH),
  },
  async ({ ctx, params }) => {
    await deleteEmergencyContact(ctx, params.id);
    return `${EMERGENCY_PATH}?notice=contact-removed#contacts-heading`;
  },
);
