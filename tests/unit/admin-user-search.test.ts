import { describe, expect, it } from "vitest";
import { prefixPattern, TRIGRAM_SEARCH_MIN_LENGTH } from "@/lib/services/admin/users";

describe("prefixPattern", () => {
  it("matches what starts with the text, LIKE's wildcards and escape taken literally", () => {
    expect(prefixPattern("ab")).toBe("ab%");
    expect(prefixPattern("a_")).toBe("a\\_%");
    expect(prefixPattern("%")).toBe("\\%%");
    expect(prefixPattern("\\")).toBe("\\\\%");
  });

  it("serves searches shorter than a trigram", () => {
    expect(TRIGRAM_SEARCH_MIN_LENGTH).toBe(3);
  });
});
