import type { tagStatus } from "@/db/schema";

export type TagStatus = (typeof tagStatus.enumValues)[number];

/**
 * The specification's tag status table, as data: the only moves there are. Every path that changes a
 * status (the status endpoint, profile completion, report-stolen, confirm-return, subscription
 * expiry) goes through `changeTagStatus`, which consults this table.
 */
export const tagTransitions: Readonly<Record<TagStatus, readonly TagStatus[]>> = {
  PENDING_SETUP: ["ACTIVE"],
  ACTIVE: ["LOST", "STOLEN", "DEACTIVATED"],
  LOST: ["FOUND", "ACTIVE", "STOLEN"],
  FOUND: ["ACTIVE"],
  STOLEN: ["ACTIVE", "DEACTIVATED"],
  DEACTIVATED: ["ACTIVE"],
  EXPIRED: ["ACTIVE"],
};

export const tagStatuses = Object.keys(tagTransitions) as TagStatus[];

export function isAllowedTransition(from: TagStatus, to: TagStatus): boolean {
  return tagTransitions[from].includes(to);
}

export function allowedTransitions(from: TagStatus): readonly TagStatus[] {
  return tagTransitions[from];
}

/** Lost mode is on while the tag is LOST, and (as the stolen alert) while it is STOLEN. */
export const inLostMode = (status: TagStatus) => status === "LOST" || status === "STOLEN";
