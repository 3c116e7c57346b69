import { and, desc, eq, isNotNull } from "drizzle-orm";
import { z } from "zod";
import { schema } from "@/db/client";
import type { ServiceContext } from "@/lib/services/context";
import { ValidationError } from "@/lib/services/errors";

/** 17 characters, letters and digits except I, O and Q (ISO 3779). */
const VIN_PATTERN = /^[A-HJ-NPR-Z0-9]{17}$/;

export const vinCheckSchema = z.object({
  vin: z.string(),
  stolen: z.boolean(),
  tagged: z.boolean(),
  message: z.string(),
  reportedAt: z.iso.datetime().optional().meta({ description: "Only when stolen" }),
});

export type VinCheck = z.infer<typeof vinCheckSchema>;

export function normalizeVin(raw: string): string {
  const vin = raw.trim().toUpperCase();
  if (!VIN_PATTERN.test(vin)) throw ValidationError.field("vin", "A VIN is 17 letters and digits, without I, O or Q.");
  return vin;
}

/**
 * GET /vehicles/verify/:vin (public): is the VIN on an owned vehicle tag, and is that tag STOLEN?
 * Says nothing else about the vehicle or its owner.
 */
export async function verifyVin(ctx: ServiceContext, rawVin: string): Promise<VinCheck> {
  const vin = normalizeVin(rawVin);
  const rows = await ctx.db
    .select({ status: schema.tags.status, stolenReportedAt: schema.tags.stolenReportedAt })
    .from(schema.vehicleProfiles)
    .innerJoin(schema.tags, eq(schema.tags.id, schema.vehicleProfiles.tagId))
    .where(and(eq(schema.vehicleProfiles.vin, vin), isNotNull(schema.tags.ownerId), eq(schema.tags.tagType, "VEHICLE")))
    .orderBy(desc(schema.tags.stolenReportedAt));
  if (rows.length === 0) return { vin, stolen: false, tagged: false, message: "This VIN is not registered with a tag." };
  const stolen = rows.find((row) => row.status === "STOLEN");
  if (stolen) {
    return {
      vin,
      stolen: true,
      tagged: true,
      message: "This vehicle has been reported stolen. Do not buy it; contact the police.",
      reportedAt: (stolen.stolenReportedAt ?? new Date()).toISOString(),
    };
  }
  return { vin, stolen: false, tagged: true, message: "This vehicle is registered with a tag and has not been reported stolen." };
}
