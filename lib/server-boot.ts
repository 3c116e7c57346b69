/**
 * The Node.js server's boot, called from instrumentation.ts: validates the configuration (a production
 * start without a required secret stops here, naming it), checks that the embedded database opens, then
 * runs the start tasks. Kept out of instrumentation.ts, which is also compiled for the Edge runtime, where
 * process.exit does not exist.
 */
export async function bootServer(): Promise<void> {
  let env: typeof import("./env").env;
  try {
    ({ env } = await import("./env"));
  } catch (error) {
    console.error(`Refusing to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  if (!env.DATABASE_URL) await refuseDamagedEmbeddedDatabase(env.DATA_DIR);
  const { startServer } = await import("./server-start");
  await startServer();
}

/**
 * A damaged embedded data directory never heals, so rather than the start-up steps retrying it for ever
 * (and every request failing), the start stops with how to recover (db/embedded-check.ts).
 */
async function refuseDamagedEmbeddedDatabase(dataDir: string): Promise<void> {
  const { default: path } = await import("node:path");
  const { getDatabase, pgliteDataDir } = await import("@/db/client");
  const { checkEmbeddedDatabase, damagedDataDirMessage } = await import("@/db/embedded-check");
  const handle = getDatabase();
  if (handle.kind !== "pglite") return;
  const check = await checkEmbeddedDatabase(handle.pglite);
  if (check.ok) return;
  console.error(`Refusing to start: ${damagedDataDirMessage(path.resolve(dataDir), pgliteDataDir(dataDir), check.error ?? "unknown error")}`);
  process.exit(1);
}
