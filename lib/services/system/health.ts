import { sql } from "drizzle-orm";
import { rateLimitHealth } from "@/lib/ratelimit";
import type { ServiceContext } from "@/lib/services/context";

// Health answers within a second whatever the database does (docs/decisions/0032-database-outage.md; load balancers time out).
const DATABASE_CHECK_TIMEOUT_MS = 800;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timed out")), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

export interface Health {
  status: "ok" | "degraded";
  db: "ok" | "down";
  cache: "ok" | "memory" | "down";
}

/** Database and rate-limit store status; `degraded` when either is down (503 only for the database). */
export async function checkHealth(ctx: ServiceContext): Promise<Health> {
  const [db, cache] = await Promise.all([
    withTimeout(ctx.db.execute(sql`select 1`), DATABASE_CHECK_TIMEOUT_MS).then(
      () => "ok" as const,
      () => "down" as const,
    ),
    rateLimitHealth().catch(() => "down" as const),
  ]);
  return { status: db === "ok" && cache !== "down" ? "ok" : "degraded", db, cache };
}
