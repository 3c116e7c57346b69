import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

// The floor, and the same handler on a route with a path parameter (the dynamic floor beside the scan).
const floors = [
  { name: "GET /api/bench-floor (the bench's framework floor)", load: () => import("@/app/api/bench-floor/route") },
  { name: "GET /api/bench-floor/path/:id (the floor on a route with a path parameter)", load: () => import("@/app/api/bench-floor/path/[id]/route") },
];

describe.each(floors)("$name", ({ load }) => {
  async function floor() {
    vi.resetModules();
    const { GET } = await load();
    return GET();
  }

  it("is 404 unless BENCH_FLOOR is set, so production does not expose it", async () => {
    vi.stubEnv("BENCH_FLOOR", "");
    const response = await floor();
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) } });
  });

  it("is 404 with BENCH_FLOOR=false", async () => {
    vi.stubEnv("BENCH_FLOOR", "false");
    expect((await floor()).status).toBe(404);
  });

  it("answers the empty success envelope with BENCH_FLOOR=true", async () => {
    vi.stubEnv("BENCH_FLOOR", "true");
    const response = await floor();
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ success: true });
  });
});

describe("GET /api/bench-floor/memory (the scale-out bench's memory reading)", () => {
  async function memory() {
    vi.resetModules();
    const { GET } = await import("@/app/api/bench-floor/memory/route");
    return GET();
  }

  it("is 404 unless BENCH_FLOOR is set", async () => {
    vi.stubEnv("BENCH_FLOOR", "");
    const response = await memory();
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) } });
  });

  it("answers the process's memory with BENCH_FLOOR=true, saying whether it collected garbage first", async () => {
    vi.stubEnv("BENCH_FLOOR", "true");
    const response = await memory();
    expect(response.status).toBe(200);
    const body = (await response.json()) as { success: boolean; data: Record<string, unknown> };
    expect(body.success).toBe(true);
    expect(body.data.collected).toBe(typeof (globalThis as { gc?: unknown }).gc === "function");
    for (const field of ["rss", "heapTotal", "heapUsed", "external", "arrayBuffers"]) expect(body.data[field]).toBeGreaterThan(0);
  });
});

describe("GET /api/bench-floor/stream (the framework floor of a live stream)", () => {
  async function floorStream(signal: AbortSignal) {
    vi.resetModules();
    const { GET } = await import("@/app/api/bench-floor/stream/route");
    return GET(new Request("http://localhost/api/bench-floor/stream", { signal }));
  }

  it("is 404 unless BENCH_FLOOR is set", async () => {
    vi.stubEnv("BENCH_FLOOR", "");
    expect((await floorStream(new AbortController().signal)).status).toBe(404);
  });

  it("with BENCH_FLOOR=true, sends the retry line as an event stream and ends when the client goes", async () => {
    vi.stubEnv("BENCH_FLOOR", "true");
    const client = new AbortController();
    const response = await floorStream(client.signal);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/event-stream; charset=utf-8");
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("retry: 3000\n\n");
    client.abort();
    expect((await reader.read()).done).toBe(true);
  });
});
