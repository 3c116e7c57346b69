// Runs once per server process before it handles requests (Next.js instrumentation hook).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  try {
    // Validates the configuration: a production start without a required secret must not serve.
    await import("./lib/env");
  } catch (error) {
    console.error(`Refusing to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  const { startServer } = await import("./lib/server-start");
  await startServer();
}
