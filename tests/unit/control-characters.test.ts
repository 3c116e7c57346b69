import { describe, expect, it } from "vitest";
import { CONTROL_CHARACTER_MESSAGE, controlCharacterIssues } from "@/lib/validation/control-characters";

describe("controlCharacterIssues", () => {
  it("names every string holding a C0 control other than tab, newline and carriage return, by its path", () => {
    const value = { name: "a\u0000b", ok: "tab\there\r\n", items: [{ note: "fine" }, { note: "esc\u001b" }], nested: { deep: ["\u0008"] }, count: 3 };
    expect(controlCharacterIssues(value)).toEqual([
      { field: "name", message: CONTROL_CHARACTER_MESSAGE },
      { field: "items.1.note", message: CONTROL_CHARACTER_MESSAGE },
      { field: "nested.deep.0", message: CONTROL_CHARACTER_MESSAGE },
    ]);
    expect(controlCharacterIssues("\u0000")).toEqual([{ field: "body", message: CONTROL_CHARACTER_MESSAGE }]);
    expect(controlCharacterIssues({ text: "DEL \u007f and é are not C0" })).toEqual([]);
  });

  it("walks a hostile nesting without overflowing the stack, and stops at a bounded number of issues", () => {
    let deep: unknown = "\u0000";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => controlCharacterIssues(deep)).not.toThrow();
    expect(controlCharacterIssues(Array.from({ length: 1000 }, () => "\u0000")).length).toBe(20);
  });
});
