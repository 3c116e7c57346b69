import { describe, expect, it } from "vitest";
import { finderMessage, ownerWordsOf, STOLEN_ALERT } from "@/lib/services/finder/view";

describe("ownerWordsOf (the finder page's owner note)", () => {
  it("gives a STOLEN tag's owner words without the alert the page shows as its own banner", () => {
    const lostMessage = finderMessage({ status: "STOLEN", lostMessage: "Red bike, taken from the station." });
    expect(lostMessage).toContain(STOLEN_ALERT);
    expect(ownerWordsOf({ status: "STOLEN", lostMessage })).toBe("Red bike, taken from the station.");
    expect(ownerWordsOf({ status: "STOLEN", lostMessage: finderMessage({ status: "STOLEN", lostMessage: null }) })).toBeNull();
  });

  it("leaves a LOST tag's message as the owner wrote it", () => {
    expect(ownerWordsOf({ status: "LOST", lostMessage: "Please call me!" })).toBe("Please call me!");
    expect(ownerWordsOf({ status: "ACTIVE", lostMessage: null })).toBeNull();
  });
});
