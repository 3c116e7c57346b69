import { and, desc, eq, isNotNull } from "drizzle-orm";
import { z } from "zod";
import { schema } from "@/db/client";
import type { ServiceContext } from "@/lib/services/context";
import { ValidationError } from "@/lib/services/errors";
import { canonicalVin, VIN_INPUT_MAX, VIN_MESSAGE, VIN_PATTERN } from "./schemas";

export const vinCheckSchema = z
  .object({
    vin: z.string().meta({ description: "The VIN checked, upper case without spaces or hyphens", example: "1HGCM82633A004352" }),
    stolen: z.boolean().meta({ description: "True only for a stolen report made with a police report reference" }),
    tagged: z.boolean(),
    message: z.string().meta({
      example:
        "Reported stolen by the owner of the vehicle tag registered with this VIN on 2026-03-14; a police report reference is on file with us. We cannot confirm who owns the vehicle: check with the police and the seller's registration documents before you buy.",
    }),
    reportedAt: z.iso.datetime().optional().meta({ description: "Only when stolen: when the stolen report was made" }),
    reportedBy: z.literal("TAG_OWNER").optional().meta({ description: "Only when stolen: who reports it, the owner of the vehicle tag registered with this VIN" }),
    policeReportOnFile: z.boolean().meta({ description: "Whether a police report reference is on file (the reference itself is never shown)" }),
  })
  .meta({ id: "VinCheck" });

export type VinCheck = z.infer<typeof vinCheckSchema>;

/** The canonical VIN (upper case, no spaces or hyphens), or 400 VALIDATION_ERROR. */
export function normalizeVin(raw: string): string {
  const vin = raw.length <= VIN_INPUT_MAX ? canonicalVin(raw.trim()) : "";
  if (!VIN_PATTERN.test(vin)) throw ValidationError.field("vin", VIN_MESSAGE);
  return vin;
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * GET /vehicles/verify/:vin (public): is the VIN on an owned vehicle tag, and is there a stolen report on
 * it that we can stand behind? Anyone can put any VIN on a vehicle profile, so a bare "stolen" would let
 * anyone brand someone else's car: a STOLEN tag counts only when its report carries a police report
 * reference, and the answer says who reports it and when, never the reference or the owner, and sends the
 * buyer to the police and the seller's documents. A STOLEN tag without a reference (reports made before one
 * was required, or a status change without one) answers "no stolen report on file".
 */
export async function verifyVin(ctx: ServiceContext, rawVin: string): Promise<VinCheck> {
  const vin = normalizeVin(rawVin);
  const rows = await ctx.db
    .select({ status: schema.tags.status, policeReportRef: schema.tags.policeReportRef, stolenReportedAt: schema.tags.stolenReportedAt })
    .from(schema.vehicleProfiles)
    .innerJoin(schema.tags, eq(schema.tags.id, schema.vehicleProfiles.tagId))
    .where(and(eq(schema.vehicleProfiles.vin, vin), isNotNull(schema.tags.ownerId), eq(schema.tags.tagType, "VEHICLE")))
    .orderBy(desc(schema.tags.stolenReportedAt));
  if (rows.length === 0) return { vin, stolen: false, tagged: false, policeReportOnFile: false, message: "This VIN is not registered with a tag. We hold no stolen report for it." };
  const stolen = rows.find((row) => row.status === "STOLEN" && row.policeReportRef && row.stolenReportedAt);
  if (stolen) {
    const reportedAt = stolen.stolenReportedAt!;
    return {
      vin,
      stolen: true,
      tagged: true,
      reportedAt: reportedAt.toISOString(),
      reportedBy: "TAG_OWNER",
      policeReportOnFile: true,
      message: `Reported stolen by the owner of the vehicle tag registered with this VIN on ${day(reportedAt)}; a police report reference is on file with us. We cannot confirm who owns the vehicle: check with the police and the seller's registration documents before you buy.`,
    };
  }
  return {
    vin,
    stolen: false,
    tagged: true,
    policeReportOnFile: false,
    message: "This VIN is registered with a vehicle tag. No stolen report with a police reference is on file. As with any purchase, check the seller's registration documents.",
  };
}
