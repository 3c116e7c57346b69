import { formText } from "@/lib/forms/form-state";
import type { TagFieldSpec } from "@/components/tags/fields-form";
import { formInput } from "@/lib/forms/form-input";
import { BLOOD_TYPES, emergencyProfileInput, MEDICAL_ITEM_MAX, MEDICAL_LIST_MAX, type EmergencyContact, type EmergencyProfile } from "@/lib/services/emergency";

export const EMERGENCY_PATH = "/dashboard/emergency";

const LIST_FIELDS = ["conditions", "allergies", "medications"] as const;

/** A text area's lines, trimmed, blank ones dropped: one list item per line. */
function lines(formData: FormData, name: string): string[] {
  return formText(formData, name)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/**
 * The profile form → PUT /emergency's body: the lists are text areas with one item per line, organ
 * donation a three-way choice (not stated, yes, no); the rest reads as the schema takes it.
 */
export function readEmergencyForm(formData: FormData): Record<string, unknown> {
  const organDonor = formText(formData, "organDonor");
  return {
    ...formInput(emergencyProfileInput.pick({ bloodType: true, physician: true, physicianPhone: true, specialInstructions: true }), formData),
    ...Object.fromEntries(LIST_FIELDS.map((name) => [name, lines(formData, name)])),
    organDonor: organDonor === "yes" ? true : organDonor === "no" ? false : null,
  };
}

export const EMERGENCY_FIELD_NAMES = ["bloodType", ...LIST_FIELDS, "physician", "physicianPhone", "specialInstructions", "organDonor"] as const;

const listHint = `One per line; up to ${MEDICAL_LIST_MAX}, each at most ${MEDICAL_ITEM_MAX} characters.`;

export function emergencyProfileFields(profile: EmergencyProfile): TagFieldSpec[] {
  return [
    {
      name: "bloodType",
      label: "Blood type",
      kind: "select",
      options: [{ value: "", label: "Not stated" }, ...BLOOD_TYPES.map((type) => ({ value: type, label: type }))],
      defaultValue: profile.bloodType ?? "",
    },
    {
      name: "organDonor",
      label: "Organ donor",
      kind: "select",
      options: [
        { value: "", label: "Not stated" },
        { value: "yes", label: "Yes" },
        { value: "no", label: "No" },
      ],
      defaultValue: profile.organDonor === null ? "" : profile.organDonor ? "yes" : "no",
    },
    { name: "conditions", label: "Medical conditions", kind: "textarea", optional: true, hint: listHint, defaultValue: profile.conditions.join("\n") },
    { name: "allergies", label: "Allergies", kind: "textarea", optional: true, hint: listHint, defaultValue: profile.allergies.join("\n") },
    { name: "medications", label: "Medications", kind: "textarea", optional: true, hint: listHint, defaultValue: profile.medications.join("\n") },
    { name: "specialInstructions", label: "Instructions for first responders", kind: "textarea", optional: true, maxLength: 500, hint: "At most 500 characters.", defaultValue: profile.specialInstructions ?? "" },
    { name: "physician", label: "Doctor", optional: true, maxLength: 100, autoComplete: "off", defaultValue: profile.physician ?? "" },
    { name: "physicianPhone", label: "Doctor's phone", kind: "tel", optional: true, maxLength: 50, autoComplete: "off", defaultValue: profile.physicianPhone ?? "" },
  ];
}

export function contactFields(contact?: EmergencyContact): TagFieldSpec[] {
  return [
    { name: "name", label: "Name", maxLength: 100, autoComplete: "off", defaultValue: contact?.name ?? "" },
    { name: "relationship", label: "Relationship", maxLength: 100, autoComplete: "off", hint: contact ? undefined : "Mother, partner, neighbour…", defaultValue: contact?.relationship ?? "" },
    { name: "phone", label: "Phone", kind: "tel", maxLength: 50, autoComplete: "off", defaultValue: contact?.phone ?? "" },
    { name: "email", label: "E-mail", kind: "email", optional: true, maxLength: 254, autoComplete: "off", hint: "Only you see it; first responders get the phone number.", defaultValue: contact?.email ?? "" },
  ];
}
