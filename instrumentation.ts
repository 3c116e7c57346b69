// Runs once per server process before it handles requests (Next.js instrumentation hook).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Tracing and OTLP metrics (docs/operations.md#tracing): the SDK is loaded only when an endpoint is set.
  if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
    try {
      const { startTelemetry } = await import("./lib/telemetry/sdk");
      startTelemetry();
    } catch (error) {
      // Telemetry is never a reason not to serve.
      console.error("telemetry: the OpenTelemetry SDK did not start; serving without it", error);
    }
  }
  const { bootServer } = await import("./lib/server-boot");
  await bootServer();
}
