import type { TagFieldSpec } from "@/components/tags/fields-form";
import type { TypedProfile } from "@/lib/services/profiles";

type TypedKind = "PET" | "VEHICLE" | "DEVICE" | "TRAVEL";

const text = (name: string, label: string, extra: Partial<TagFieldSpec> = {}): TagFieldSpec => ({ name, label, optional: true, maxLength: 100, ...extra }) as TagFieldSpec;
const required = (name: string, label: string, extra: Partial<TagFieldSpec> = {}): TagFieldSpec => ({ name, label, maxLength: 100, ...extra }) as TagFieldSpec;

/** The typed profile's fields, as the specification lists them, with what the owner reads. */
export const typedFormSpecs: Record<TypedKind, { title: string; description: string; fields: TagFieldSpec[] }> = {
  PET: {
    title: "Pet details",
    description: "Finders see these to recognise your pet and know how to care for it.",
    fields: [
      required("petName", "Pet's name"),
      required("species", "Species", { hint: "Dog, cat, rabbit…" }),
      text("breed", "Breed"),
      text("color", "Colour and markings"),
      text("microchip", "Microchip number"),
      { name: "vetInfo", label: "Vet and care notes", kind: "textarea", optional: true, maxLength: 500, hint: "Your vet's name and phone, medication, allergies." },
    ],
  },
  VEHICLE: {
    title: "Vehicle details",
    description: "Helps finders and the police recognise the vehicle.",
    fields: [
      required("make", "Make"),
      required("model", "Model"),
      text("year", "Year", { kind: "text", inputMode: "numeric", maxLength: 4 }),
      text("color", "Colour"),
      text("licensePlate", "Licence plate"),
      text("vin", "VIN", { hint: "17 letters and digits, without I, O or Q.", maxLength: 17, autoCapitalize: "characters", spellCheck: false }),
    ],
  },
  DEVICE: {
    title: "Device details",
    description: "Helps finders recognise the device.",
    fields: [required("deviceType", "Kind of device", { hint: "Phone, laptop, camera…" }), text("brand", "Brand"), text("model", "Model"), text("serialNumber", "Serial number"), text("color", "Colour")],
  },
  TRAVEL: {
    title: "Luggage details",
    description: "Helps airline staff and finders get your bag back to you.",
    fields: [required("luggageType", "Kind of luggage", { hint: "Suitcase, backpack…" }), text("color", "Colour"), text("brand", "Brand"), text("flightNumber", "Flight number"), text("destination", "Destination")],
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
