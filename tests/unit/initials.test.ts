import { describe, expect, it } from "vitest";
import { initials } from "@/components/dashboard/initials";

describe("initials", () => {
  it("takes the first letters of the first and last names, upper case", () => {
    expect(initials({ firstName: "ada", lastName: "Lovelace", email: "ada@example.com" })).toBe("AL");
  });

  it("keeps a character made of several code points whole", () => {
    expect(initials({ firstName: "E\u0301mile", lastName: "Zola", email: "e@example.com" })).toBe("E\u0301Z");
  });

  it("uses one name when the other is blank", () => {
    expect(initials({ firstName: "  ", lastName: "Hopper", email: "g@example.com" })).toBe("H");
  });

  it("falls back to the e-mail address", () => {
    expect(initials({ firstName: "", lastName: null, email: "grace@example.com" })).toBe("G");
  });
});
