import type { TagFieldSpec } from "@/components/tags/fields-form";
import { tagTypeLabels, tagTypes, type TagType } from "@/components/tags/labels";
import type { Profile, TypedProfile } from "@/lib/services/profiles";
import { VIN_INPUT_MAX } from "@/lib/services/vehicles";

type TypedKind = "PET" | "VEHICLE" | "DEVICE" | "TRAVEL";

const text = (name: string, label: string, extra: Partial<TagFieldSpec> = {}): TagFieldSpec => ({ name, label, optional: true, maxLength: 100, ...extra }) as TagFieldSpec;
const required = (name: string, label: string, extra: Partial<TagFieldSpec> = {}): TagFieldSpec => ({ name, label, maxLength: 100, ...extra }) as TagFieldSpec;
const checkbox = (name: string, label: string, hint: string): TagFieldSpec => ({ name, label, kind: "checkbox", hint });

/** Each field says whether finders see it (the scan view's details decide; the preview shows the same). */
const SHOWN = "Finders see this when the profile is public.";
const HIDDEN = "Only you see this; never shown to finders.";
const shown = (extra: Partial<TagFieldSpec> = {}) => ({ ...extra, hint: extra.hint ? `${String(extra.hint)} ${SHOWN}` : SHOWN });
const hidden = (extra: Partial<TagFieldSpec> = {}) => ({ ...extra, hint: extra.hint ? `${String(extra.hint)} ${HIDDEN}` : HIDDEN });

/** The typed profile's fields, as the specification lists them, with what the owner reads (a pet's name is the item name). */
export const typedFormSpecs: Record<TypedKind, { title: string; description: string; fields: TagFieldSpec[] }> = {
  PET: {
    title: "Pet details",
    description: "What finders need to recognise your pet. Each field says whether finders see it.",
    fields: [
      required("species", "Species", shown({ hint: "Dog, cat, rabbit…" })),
      text("breed", "Breed", shown()),
      text("color", "Colour", shown()),
      text("size", "Size", shown({ hint: "Small, medium, large, or a weight." })),
      { name: "distinctiveMarks", label: "Distinctive marks", kind: "textarea", optional: true, maxLength: 500, ...shown({ hint: "A white patch, a torn ear, a red collar…" }) } as TagFieldSpec,
      checkbox("needsMedication", "Needs medication", "Only you see this, unless you tick the next box."),
      checkbox("showNeedsMedication", "Tell finders it needs medication", "When ticked and it needs medication, finders read “Needs medication” so they contact you quickly."),
      text("microchip", "Microchip number", hidden()),
      { name: "vetInfo", label: "Vet and care notes", kind: "textarea", optional: true, maxLength: 500, ...hidden({ hint: "Your vet's name and phone, medication, allergies." }) } as TagFieldSpec,
    ],
  },
  VEHICLE: {
    title: "Vehicle details",
    description: "Helps finders and the police recognise the vehicle.",
    fields: [
      required("make", "Make", shown()),
      required("model", "Model", shown()),
      text("year", "Year", shown({ kind: "text", inputMode: "numeric", maxLength: 4 })),
      text("color", "Colour", shown()),
      text("licensePlate", "Licence plate", { hint: "Finders see it only if you tick the box below." }),
      checkbox("showPlate", "Show the licence plate to finders", "Off by default: a plate leads to you, but it helps a finder be sure it is your vehicle."),
      text("vin", "VIN", hidden({ hint: "17 letters and digits, without I, O or Q; spaces and hyphens are ignored.", maxLength: VIN_INPUT_MAX, autoCapitalize: "characters", spellCheck: false })),
    ],
  },
  DEVICE: {
    title: "Device details",
    description: "Helps finders recognise the device.",
    fields: [
      required("deviceType", "Kind of device", shown({ hint: "Phone, laptop, camera…" })),
      text("brand", "Brand", shown()),
      text("model", "Model", shown()),
      text("serialNumber", "Serial number", hidden()),
      text("color", "Colour", shown()),
    ],
  },
  TRAVEL: {
    title: "Luggage details",
    description: "Helps airline staff and finders get your bag back to you.",
    fields: [
      required("luggageType", "Kind of luggage", shown({ hint: "Suitcase, backpack…" })),
      text("color", "Colour", shown()),
      text("brand", "Brand", shown()),
      text("flightNumber", "Flight number", hidden()),
      text("destination", "Destination", hidden()),
    ],
  },
};

export function isTypedKind(type: string): type is TypedKind {
  return type in typedFormSpecs;
}

/** The saved values as form defaults ("" for none). */
export function typedDefaults(fields: TagFieldSpec[], saved: TypedProfile | null): TagFieldSpec[] {
  const record = (saved ?? {}) as Record<string, unknown>;
  return fields.map((field) => {
    const value = record[field.name];
    return { ...field, defaultValue: value === null || value === undefined ? "" : String(value) };
  });
}

/** What the item's name is called for each type: a pet's name is its name, not a repeat of it. */
const nameLabels: Record<TagType, { label: string; hint: string }> = {
  GENERAL: { label: "Item name", hint: "What finders see as its name, like “Blue backpack”." },
  PET: { label: "Pet's name", hint: "Finders call your pet by it." },
  VEHICLE: { label: "Name", hint: "What finders see as its name, like “Red city bike”." },
  DEVICE: { label: "Name", hint: "What finders see as its name, like “Work laptop”." },
  TRAVEL: { label: "Name", hint: "What finders see as its name, like “Black suitcase”." },
};

/**
 * The tag page's one details form: the name (as the type calls it), the type's own details, then what
 * finders read and how they may reach the owner. Saved values are the defaults.
 */
export function detailsFields(tagType: TagType, profile: Profile): TagFieldSpec[] {
  const typed = isTypedKind(tagType) ? typedDefaults(typedFormSpecs[tagType].fields, profile.typedProfile) : [];
  return [
    { name: "itemName", label: nameLabels[tagType].label, hint: nameLabels[tagType].hint, maxLength: 100, defaultValue: profile.itemName ?? "" },
    { name: "tagType", label: "Type", kind: "select", options: tagTypes.map((type) => ({ value: type, label: tagTypeLabels[type] })), defaultValue: tagType, hint: "Changing it shows that type's details after saving." },
    ...typed,
    { name: "description", label: "Description", kind: "textarea", optional: true, maxLength: 2000, defaultValue: profile.description ?? "", hint: `What helps a finder recognise it. ${SHOWN}` },
    { name: "ownerName", label: "Your name as finders see it", optional: true, maxLength: 100, autoComplete: "name", defaultValue: profile.ownerName ?? "", hint: `${SHOWN} The emergency page names you by it.` },
    { name: "contactEmail", label: "Contact e-mail", kind: "email", optional: true, autoComplete: "email", defaultValue: profile.contactEmail ?? "", hint: "Kept with the tag for you: finders never see it, they message you through us." },
    { name: "contactPhone", label: "Contact phone", kind: "tel", optional: true, autoComplete: "tel", defaultValue: profile.contactPhone ?? "", hint: "Kept with the tag for you, never shown to finders." },
    {
      name: "visibility",
      label: "Who sees the profile",
      kind: "select",
      options: [
        { value: "PUBLIC", label: "Anyone who scans the tag" },
        { value: "PRIVATE", label: "Private: finders see only a way to contact you" },
      ],
      defaultValue: profile.visibility,
    },
    {
      name: "emergencyVisible",
      label: "Offer my emergency information on this tag's page",
      kind: "checkbox",
      defaultValue: profile.emergencyVisible ? "true" : "",
      hint: "Your medical information and emergency contacts, for first responders, even when the profile is private. Off for pet tags unless you tick it: a pet's finder has no use for your medical details.",
    },
  ];
}
