import { describe, expect, it } from "vitest";
import { safeHeaders, safeHeaderValue, singleLine } from "@/lib/email/headers";

describe("e-mail header hygiene", () => {
  it("folds line breaks in a subject to one line", () => {
    expect(singleLine("Hello\r\nBcc: victim@example.com")).toBe("Hello Bcc: victim@example.com");
    expect(singleLine(" Spring\u2028news \n")).toBe("Spring news");
  });

  it("refuses a header value with a line break and a header name that is not a token", () => {
    expect(safeHeaderValue("<https://example.com/u?token=t>")).toBe("<https://example.com/u?token=t>");
    expect(() => safeHeaderValue("a@example.com\r\nBcc: victim@example.com")).toThrow(/line break/);
    expect(() => safeHeaders({ "List-Unsubscribe": "x\nBcc: y" })).toThrow(/line break/);
    expect(() => safeHeaders({ "Bad Name": "x" })).toThrow(/header name/);
    expect(safeHeaders({ "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" })).toEqual({ "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
  });
});
