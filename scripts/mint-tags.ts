import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { getDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrator";
import { systemContext } from "@/lib/services/context";
import { type MintedTag, mintTags } from "@/lib/services/tags";
import { MINT_USAGE, mintedTagsCsv, parseMintArgs } from "./mint-tags-options";

// `npm run tags:mint -- --count N [--type PET] [--csv out.csv]`: mints unowned PENDING_SETUP tags as
// inventory (the same service as POST /admin/tags/batch) and, with --csv, writes the printer's file.
// Exit codes: 0 done, 1 failure while minting or writing, 2 bad arguments.

async function main(): Promise<number> {
  const parsed = parseMintArgs(process.argv.slice(2));
  if (!parsed.ok) {
    console.error(`tags:mint: ${parsed.error}\n\n${MINT_USAGE}`);
    return 2;
  }
  if ("help" in parsed) {
    console.log(MINT_USAGE);
    return 0;
  }
  const { count, tagType, csvPath } = parsed.options;

  // Open the CSV file before minting (never overwriting one), so a bad path fails before any tag exists.
  let csv: { fd: number; file: string } | undefined;
  if (csvPath) {
    const file = path.resolve(csvPath);
    try {
      csv = { fd: openSync(file, "wx"), file };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      console.error(`tags:mint: cannot create ${file}: ${code === "EEXIST" ? "the file already exists" : ((error as Error).message ?? code)}.`);
      return 2;
    }
  }

  const handle = getDatabase();
  let minted: MintedTag[] | undefined;
  try {
    if (handle.kind === "pglite") await migrateDatabase(handle);
    minted = await mintTags(systemContext(handle.db), { count, tagType });
    if (csv) {
      writeSync(csv.fd, mintedTagsCsv(minted));
      closeSync(csv.fd);
      csv = undefined;
    }
    console.log(`tags:mint: minted ${minted.length} ${tagType} tag${minted.length === 1 ? "" : "s"} (unowned, PENDING_SETUP).`);
    if (csvPath) console.log(`tags:mint: wrote ${minted.length} rows to ${path.resolve(csvPath)}.`);
    else for (const tag of minted) console.log(`${tag.code}  ${tag.scanUrl}`);
    return 0;
  } catch (error) {
    console.error("tags:mint: failed:", error instanceof Error ? error.message : error);
    if (minted) {
      // The tags exist but the file could not be written: print the rows so the batch is not lost.
      console.error(`tags:mint: ${minted.length} tags were minted; their rows follow on standard output.`);
      process.stdout.write(mintedTagsCsv(minted));
    }
    return 1;
  } finally {
    if (csv) {
      // Not written: leave no empty or partial file behind.
      closeSync(csv.fd);
      rmSync(csv.file, { force: true });
    }
    await handle.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
