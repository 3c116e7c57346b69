/**
 * The Node.js server's boot, called from instrumentation.ts: validates the configuration (a production
 * start without a required secret stops here, naming it), then runs the start tasks. Kept out of
 * instrumentation.ts, which is also compiled for the Edge runtime, where process.exit does not exist.
 */
export async function bootServer(): Promise<void> {
  try {
    await import("./env");
  } catch (error) {
    console.error(`Refusing to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  const { startServer } = await import("./server-start");
  await startServer();
}
