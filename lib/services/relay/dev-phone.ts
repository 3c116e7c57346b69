import { devPhoneEnabled } from "@/lib/env";
import { listTestDeliveries } from "@/lib/telephony/test-provider";
import type { ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import type { DevPhoneDelivery } from "./schemas";

/** GET /api/dev/phone: what the test telephony provider delivered to or from a number, newest first; 404 where it is off. */
export async function readDevPhone(ctx: ServiceContext, input: { number: string; limit?: number }): Promise<DevPhoneDelivery[]> {
  if (!devPhoneEnabled()) throw new NotFoundError();
  const rows = await listTestDeliveries(input.number, input.limit ?? 50, ctx.db);
  return rows.map((row) => ({ sid: row.sid, kind: row.kind === "call" ? "call" : "sms", from: row.from, to: row.to, body: row.body, createdAt: row.createdAt.toISOString() }));
}
