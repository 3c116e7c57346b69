import type { TagRecord, TagStatus } from "@/lib/services/tags";

export type TagType = TagRecord["tagType"];

export const tagStatusLabels: Record<TagStatus, string> = {
  PENDING_SETUP: "Setting up",
  ACTIVE: "Active",
  LOST: "Lost",
  FOUND: "Found",
  STOLEN: "Stolen",
  DEACTIVATED: "Deactivated",
  EXPIRED: "Expired",
};

export const tagTypeLabels: Record<TagType, string> = {
  GENERAL: "General item",
  PET: "Pet",
  VEHICLE: "Vehicle",
  DEVICE: "Device",
  TRAVEL: "Travel and luggage",
};

export const tagTypes = Object.keys(tagTypeLabels) as TagType[];
export const tagStatusList = Object.keys(tagStatusLabels) as TagStatus[];

/** Each status as an option of the tag page's status control: its name and what choosing it does. */
export const statusOptions: Record<TagStatus, { label: string; explain: string }> = {
  ACTIVE: { label: "Active", explain: "Finders see the normal profile, without any lost, stolen or found notice." },
  LOST: { label: "Lost", explain: "Finders see a LOST banner with your message, and every real scan alerts you." },
  FOUND: { label: "Found", explain: "You have it back: finders see that it was found. Switch it to Active later." },
  STOLEN: { label: "Stolen", explain: "Finders see a stolen alert and are told not to confront anyone; every real scan alerts you." },
  DEACTIVATED: { label: "Switched off", explain: "Scans show nothing of the profile; the tag no longer counts towards your plan." },
  PENDING_SETUP: { label: "Setting up", explain: "" },
  EXPIRED: { label: "Expired", explain: "" },
};
