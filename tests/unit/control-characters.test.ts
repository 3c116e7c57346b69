import { describe, expect, it } from "vitest";
import { CONTROL_CHARACTER_MESSAGE, LONE_SURROGATE_MESSAGE, controlCharacterIssues, toWellFormedText, wellFormedJson, withoutControlCharacters } from "@/lib/validation/control-characters";

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

  it("names every string holding a lone surrogate, and an object whose key holds one, but takes paired surrogates", () => {
    const value = { name: "\ud800", middle: "a\udc00b", emoji: "ok \ud83d\ude00", list: ["fine", "\udbff"], record: { "k\ud800": 1 } };
    expect(controlCharacterIssues(value)).toEqual([
      { field: "name", message: LONE_SURROGATE_MESSAGE },
      { field: "middle", message: LONE_SURROGATE_MESSAGE },
      { field: "list.1", message: LONE_SURROGATE_MESSAGE },
      { field: "record", message: LONE_SURROGATE_MESSAGE },
    ]);
    expect(controlCharacterIssues({ bad: { "a\u0000": "x" } })).toEqual([{ field: "bad", message: CONTROL_CHARACTER_MESSAGE }]);
  });
});

describe("making text well-formed", () => {
  it("replaces lone surrogates with U+FFFD and keeps pairs, as String.prototype.toWellFormed does", () => {
    for (const text of ["\ud800", "a\udc00b", "\ud83d\ude00", "\ude00\ud83d", "plain", "\ud800\ud800\udc00"]) {
      const native = (text as unknown as { toWellFormed?: () => string }).toWellFormed?.();
      expect(toWellFormedText(text)).toBe(native ?? toWellFormedText(text));
    }
    expect(toWellFormedText("a\ud800b")).toBe("a\ufffdb");
    expect(withoutControlCharacters("x\u0000\udc00")).toBe("x\ufffd");
  });

  it("mends every string and key of a parsed JSON value in place, at any depth", () => {
    let deep: unknown = "\ud800";
    for (let i = 0; i < 50_000; i++) deep = [deep];
    expect(() => wellFormedJson(deep)).not.toThrow();
    expect(wellFormedJson(JSON.parse('{"id":"evt_1","data":{"object":{"name":"\\ud800x","list":["\\udc00"],"k\\ud800":1}}}'))).toEqual({
      id: "evt_1",
      data: { object: { name: "\ufffdx", list: ["\ufffd"], "k\ufffd": 1 } },
    });
  });
});
