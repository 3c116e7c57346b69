import type { MintedTag, TagType } from "@/lib/services/tags";

/** Pure helpers of `npm run tags:mint` (scripts/mint-tags.ts), kept apart so they can be unit-tested. */

export const MINT_TAG_TYPES = ["GENERAL", "PET", "VEHICLE", "DEVICE", "TRAVEL"] as const satisfies readonly TagType[];
export const MAX_MINT_COUNT = 1000;

export const MINT_USAGE = `Usage: npm run tags:mint -- --count N [--type ${MINT_TAG_TYPES.join("|")}] [--csv out.csv]

  --count N      how many tags to mint, 1..${MAX_MINT_COUNT} (required)
  --type TYPE    the tag type of the batch (default GENERAL)
  --csv FILE     write code,scanUrl,encryptedId,id rows for the printer to FILE (must not exist yet)`;

export interface MintOptions {
  count: number;
  tagType: TagType;
  csvPath?: string;
}

export type ParsedMintArgs = { ok: true; options: MintOptions } | { ok: true; help: true } | { ok: false; error: string };

/** Parses `--count N`, `--type T`, `--csv FILE` (also as `--flag=value`) and `--help`. */
export function parseMintArgs(argv: readonly string[]): ParsedMintArgs {
  const values: Partial<Record<"count" | "type" | "csv", string>> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") return { ok: true, help: true };
    const match = /^--(count|type|csv)(?:=(.*))?$/.exec(arg);
    if (!match) return { ok: false, error: `Unknown argument "${arg}".` };
    const name = match[1] as "count" | "type" | "csv";
    let value = match[2];
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith("--")) return { ok: false, error: `--${name} needs a value.` };
      value = next;
      i += 1;
    }
    if (values[name] !== undefined) return { ok: false, error: `--${name} was given twice.` };
    values[name] = value;
  }

  if (values.count === undefined) return { ok: false, error: "--count is required." };
  if (!/^\d+$/.test(values.count.trim())) return { ok: false, error: `--count must be a whole number from 1 to ${MAX_MINT_COUNT}, got "${values.count}".` };
  const count = Number(values.count.trim());
  if (count < 1 || count > MAX_MINT_COUNT) return { ok: false, error: `--count must be from 1 to ${MAX_MINT_COUNT}, got ${count}.` };

  const tagType = (values.type ?? "GENERAL").trim().toUpperCase();
  if (!(MINT_TAG_TYPES as readonly string[]).includes(tagType)) {
    return { ok: false, error: `--type must be one of ${MINT_TAG_TYPES.join(", ")}, got "${values.type}".` };
  }

  if (values.csv !== undefined && !values.csv.trim()) return { ok: false, error: "--csv needs a file name." };
  return { ok: true, options: { count, tagType: tagType as TagType, ...(values.csv !== undefined ? { csvPath: values.csv } : {}) } };
}

/** One CSV field (RFC 4180): quoted, with quotes doubled, when it holds a comma, quote or line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The printer's file: a header and one `code,scanUrl,encryptedId,id` row per tag, CRLF line ends. */
export function mintedTagsCsv(tags: readonly MintedTag[]): string {
  const rows = [["code", "scanUrl", "encryptedId", "id"], ...tags.map((tag) => [tag.code, tag.scanUrl, tag.encryptedId, tag.id])];
  return rows.map((row) => row.map(csvField).join(",")).join("\r\n") + "\r\n";
}
