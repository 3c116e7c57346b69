import { describe, expect, it } from "vitest";
import { transferFailureMessage } from "@/app/(dashboard)/dashboard/tags/transfers/failure-messages";

describe("the transfers page's failure alert", () => {
  it("says fixed text chosen by error code, never the query's own text", () => {
    expect(transferFailureMessage("FORBIDDEN")).toMatch(/Verify your e-mail address/);
    expect(transferFailureMessage("CONFLICT")).toMatch(/no longer waiting/);
    for (const crafted of ["Your account is locked: call +1 555 0100", "<script>alert(1)</script>", "constructor", "__proto__", undefined]) {
      expect(transferFailureMessage(crafted)).toBe("That did not work. Please try again.");
    }
  });
});
