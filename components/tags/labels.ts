import type { TagStatus } from "@/lib/services/tags/transitions";
import type { TagRecord } from "@/lib/services/tags/records";

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

/** What each move is called on the owner's button, and what it does. */
export const transitionActions: Record<TagStatus, { label: string; explain: string }> = {
  ACTIVE: { label: "Mark as active", explain: "Finders see the normal profile again." },
  LOST: { label: "Mark as lost", explain: "Finders who scan the tag see that it is lost, with your message." },
  FOUND: { label: "Mark as found", explain: "You have it back." },
  STOLEN: { label: "Report stolen", explain: "Finders see a stolen alert." },
  DEACTIVATED: { label: "Deactivate", explain: "Scans show nothing of the profile; the tag no longer counts towards your plan." },
  PENDING_SETUP: { label: "Set up", explain: "" },
  EXPIRED: { label: "Expire", explain: "" },
};
