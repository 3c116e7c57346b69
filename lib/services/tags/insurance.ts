import { eq } from "drizzle-orm";
import { z } from "zod";
import { schema } from "@/db/client";
import { withTransaction, type ServiceContext } from "@/lib/services/context";
import { NotFoundError, ValidationError } from "@/lib/services/errors";
import { ownedTag } from "./access";
import type { InsuranceInput } from "./schemas";

const MAX_MINOR_UNITS = 2_147_483_647; // the integer column

export const insuranceRecordSchema = z
  .object({
    tagId: z.uuid(),
    provider: z.string(),
    policyNumber: z.string(),
    coverageAmount: z.number().nullable(),
    currency: z.string(),
    validUntil: z.iso.date().nullable(),
    contactPhone: z.string().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "TagInsurance" });

export type InsuranceRecord = z.infer<typeof insuranceRecordSchema>;
type InsuranceRow = typeof schema.tagInsurance.$inferSelect;

/** Decimal places of a currency's minor unit (JPY 0, USD 2, KWD 3). */
export function currencyDecimals(currency: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    throw ValidationError.field("currency", "An ISO 4217 code, such as USD.");
  }
}

export function toMinorUnits(amount: number, currency: string): number {
  const decimals = currencyDecimals(currency);
  const minor = Math.round(amount * 10 ** decimals);
  if (Math.abs(minor / 10 ** decimals - amount) > 1e-9) {
    throw ValidationError.field("coverageAmount", `${currency} amounts have at most ${decimals} decimal places.`);
  }
  if (minor > MAX_MINOR_UNITS) throw ValidationError.field("coverageAmount", "The amount is too large.");
  return minor;
}

export function fromMinorUnits(minor: number, currency: string): number {
  const decimals = currencyDecimals(currency);
  return Number((minor / 10 ** decimals).toFixed(decimals));
}

function toInsuranceRecord(row: InsuranceRow): InsuranceRecord {
  const currency = row.currency ?? "USD";
  return {
    tagId: row.tagId,
    provider: row.provider,
    policyNumber: row.policyNumber,
    coverageAmount: row.coverageAmount === null ? null : fromMinorUnits(row.coverageAmount, currency),
    currency,
    validUntil: row.validUntil,
    contactPhone: row.contactPhone,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function getInsurance(ctx: ServiceContext, tagId: string): Promise<InsuranceRecord> {
  const tag = await ownedTag(ctx, tagId);
  const [row] = await ctx.db.select().from(schema.tagInsurance).where(eq(schema.tagInsurance.tagId, tag.id));
  if (!row) throw new NotFoundError("This tag has no insurance record.");
  return toInsuranceRecord(row);
}

/** POST /tags/:id/insurance: creates the record or replaces it whole (omitted fields become empty). */
export async function saveInsurance(ctx: ServiceContext, tagId: string, input: InsuranceInput): Promise<{ record: InsuranceRecord; created: boolean }> {
  return withTransaction(ctx, async (tx) => {
    const tag = await ownedTag(tx, tagId, { lock: true });
    const currency = input.currency ?? "USD";
    const values = {
      provider: input.provider,
      policyNumber: input.policyNumber,
      coverageAmount: input.coverageAmount == null ? null : toMinorUnits(input.coverageAmount, currency),
      currency,
      validUntil: input.validUntil ?? null,
      contactPhone: input.contactPhone ?? null,
    };
    const [existing] = await tx.db.select({ tagId: schema.tagInsurance.tagId }).from(schema.tagInsurance).where(eq(schema.tagInsurance.tagId, tag.id));
    const [row] = existing
      ? await tx.db.update(schema.tagInsurance).set(values).where(eq(schema.tagInsurance.tagId, tag.id)).returning()
      : await tx.db.insert(schema.tagInsurance).values({ tagId: tag.id, ...values }).returning();
    return { record: toInsuranceRecord(row!), created: !existing };
  });
}

export async function deleteInsurance(ctx: ServiceContext, tagId: string): Promise<{ message: string }> {
  return withTransaction(ctx, async (tx) => {
    const tag = await ownedTag(tx, tagId, { lock: true });
    const removed = await tx.db.delete(schema.tagInsurance).where(eq(schema.tagInsurance.tagId, tag.id)).returning({ tagId: schema.tagInsurance.tagId });
    if (removed.length === 0) throw new NotFoundError("This tag has no insurance record.");
    return { message: "The insurance record was removed." };
  });
}
