import { describe, expect, it } from "vitest";
import { restoreList } from "@/db/backup";
import { defaultBackupFile, parseBackupArgs } from "@/scripts/db-backup-options";

describe("db:restore's list of what to restore", () => {
  const list = [
    ";",
    "2; 3079 133627 EXTENSION - cube ",
    "4361; 0 0 COMMENT - EXTENSION cube ",
    "3; 3079 133716 EXTENSION - earthdistance ",
    "4362; 0 0 COMMENT - EXTENSION earthdistance ",
    "1234; 1259 1 TABLE public users postgres",
    "1235; 0 0 COMMENT public TABLE users postgres",
  ].join("\n");

  it("leaves out the extensions' comments always, and the extensions the target already has", () => {
    const kept = restoreList(list, new Set(["cube"])).split("\n").filter((line) => !line.startsWith(";"));
    expect(kept).toEqual(["3; 3079 133716 EXTENSION - earthdistance ", "1234; 1259 1 TABLE public users postgres", "1235; 0 0 COMMENT public TABLE users postgres"]);
  });
});

describe("db:backup / db:restore arguments", () => {
  it("reads the file, the target and --force, as flags or --flag=value", () => {
    expect(parseBackupArgs(["--file", "a.dump", "--database-url=postgres://x@h/db", "--force"])).toEqual({ ok: true, options: { file: "a.dump", databaseUrl: "postgres://x@h/db", force: true } });
    expect(parseBackupArgs(["b.tar.gz", "--data-dir", ".data"])).toEqual({ ok: true, options: { file: "b.tar.gz", dataDir: ".data", force: false } });
    expect(parseBackupArgs(["--help"])).toEqual({ ok: true, help: true });
  });

  it("refuses unknown arguments, a flag without its value and both targets at once", () => {
    expect(parseBackupArgs(["--bogus"])).toMatchObject({ ok: false });
    expect(parseBackupArgs(["--file"])).toEqual({ ok: false, error: "--file takes a value" });
    expect(parseBackupArgs(["--file", "--force"])).toEqual({ ok: false, error: "--file takes a value" });
    expect(parseBackupArgs(["--database-url", "postgres://h/db", "--data-dir", "d"])).toMatchObject({ ok: false });
  });

  it("names the default file by kind and time", () => {
    const at = new Date("2026-11-27T07:30:00.000Z");
    expect(defaultBackupFile("postgres", at)).toBe("backups/tag-service-2026-11-27T07-30-00-000Z.dump");
    expect(defaultBackupFile("pglite", at)).toBe("backups/tag-service-2026-11-27T07-30-00-000Z.tar.gz");
  });
});
