import { describe, expect, it } from "vitest";
import { csvField, mintedTagsCsv, parseMintArgs } from "@/scripts/mint-tags-options";

describe("tags:mint arguments", () => {
  it("parses count, type and csv, in both flag forms", () => {
    expect(parseMintArgs(["--count", "25"])).toEqual({ ok: true, options: { count: 25, tagType: "GENERAL" } });
    expect(parseMintArgs(["--count=1000", "--type", "pet", "--csv", "out.csv"])).toEqual({ ok: true, options: { count: 1000, tagType: "PET", csvPath: "out.csv" } });
    expect(parseMintArgs(["--type=VEHICLE", "--csv=batch 7.csv", "--count=1"])).toEqual({ ok: true, options: { count: 1, tagType: "VEHICLE", csvPath: "batch 7.csv" } });
    expect(parseMintArgs(["--help"])).toEqual({ ok: true, help: true });
  });

  it.each([
    [[], "--count is required."],
    [["--count"], "--count needs a value."],
    [["--count", "--type", "PET"], "--count needs a value."],
    [["--count", "0"], "from 1 to 1000"],
    [["--count", "1001"], "from 1 to 1000"],
    [["--count", "-5"], "whole number"],
    [["--count", "2.5"], "whole number"],
    [["--count", "ten"], "whole number"],
    [["--count", "1e3"], "whole number"],
    [["--count", "5", "--type", "BOAT"], "--type must be one of"],
    [["--count", "5", "--csv="], "--csv needs a file name."],
    [["--count", "5", "--count", "6"], "given twice"],
    [["--count", "5", "extra"], 'Unknown argument "extra"'],
    [["-n", "5"], 'Unknown argument "-n"'],
  ])("refuses %j", (argv, message) => {
    const parsed = parseMintArgs(argv);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toContain(message);
  });
});

describe("the printer CSV", () => {
  it("escapes fields per RFC 4180", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\rhere")).toBe('"cr\rhere"');
  });

  it("writes a header and one code,scanUrl,encryptedId,id row per tag", () => {
    const csv = mintedTagsCsv([
      { id: "11111111-1111-4111-8111-111111111111", code: "7K3QX-M9P2T", encryptedId: "abc_DEF-1", scanUrl: "http://localhost:3000/t/abc_DEF-1" },
      { id: "22222222-2222-4222-8222-222222222222", code: "AAAAA-BBBBB", encryptedId: "x", scanUrl: "https://example.com/a,b/t/x" },
    ]);
    expect(csv).toBe(
      "code,scanUrl,encryptedId,id\r\n" +
        "7K3QX-M9P2T,http://localhost:3000/t/abc_DEF-1,abc_DEF-1,11111111-1111-4111-8111-111111111111\r\n" +
        'AAAAA-BBBBB,"https://example.com/a,b/t/x",x,22222222-2222-4222-8222-222222222222\r\n',
    );
    expect(mintedTagsCsv([])).toBe("code,scanUrl,encryptedId,id\r\n");
  });
});
