import { describe, expect, it } from "vitest";
import { tagStatus } from "@/db/schema";
import { allowedTransitions, isAllowedTransition, tagStatuses, tagTransitions, type TagStatus } from "@/lib/services/tags/transitions";

/** The API specification's tag status table (docs/decisions/0014-tag-state-machine.md): exactly these rows. */
const SPEC_TABLE: Record<TagStatus, TagStatus[]> = {
  PENDING_SETUP: ["ACTIVE"],
  ACTIVE: ["LOST", "STOLEN", "DEACTIVATED"],
  LOST: ["FOUND", "ACTIVE", "STOLEN"],
  FOUND: ["ACTIVE"],
  STOLEN: ["ACTIVE", "DEACTIVATED"],
  DEACTIVATED: ["ACTIVE"],
  EXPIRED: ["ACTIVE"],
};

const sorted = (values: readonly string[]) => [...values].sort();

describe("the tag transition table", () => {
  it("has one row per status of the database enum, no more", () => {
    expect(sorted(Object.keys(tagTransitions))).toEqual(sorted(tagStatus.enumValues));
    expect(sorted(tagStatuses)).toEqual(sorted(tagStatus.enumValues));
  });

  it.each(Object.entries(SPEC_TABLE))("lists exactly the specification's moves from %s", (from, allowed) => {
    expect(sorted(tagTransitions[from as TagStatus])).toEqual(sorted(allowed));
    expect(sorted(allowedTransitions(from as TagStatus))).toEqual(sorted(allowed));
  });

  it("answers every one of the 49 cells as the specification does, same status never allowed", () => {
    for (const from of tagStatus.enumValues) {
      for (const to of tagStatus.enumValues) {
        expect(isAllowedTransition(from, to), `${from} → ${to}`).toBe(SPEC_TABLE[from].includes(to));
      }
      expect(isAllowedTransition(from, from)).toBe(false);
    }
  });

  it("never allows LOST → DEACTIVATED directly, and nothing leads into PENDING_SETUP or EXPIRED", () => {
    expect(isAllowedTransition("LOST", "DEACTIVATED")).toBe(false);
    for (const from of tagStatus.enumValues) {
      expect(isAllowedTransition(from, "PENDING_SETUP")).toBe(false);
      expect(isAllowedTransition(from, "EXPIRED")).toBe(false);
    }
  });
});
