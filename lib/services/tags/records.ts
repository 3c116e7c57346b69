import { z } from "zod";
import type { Tag } from "@/db/schema";
import { formatTagCode, scanUrl } from "./codes";

export const tagStatusSchema = z.enum(["PENDING_SETUP", "ACTIVE", "LOST", "FOUND", "STOLEN", "DEACTIVATED", "EXPIRED"]);
export const tagTypeSchema = z.enum(["GENERAL", "PET", "VEHICLE", "DEVICE", "TRAVEL"]);
export const visibilitySchema = z.enum(["PUBLIC", "PRIVATE"]);

/** The tag record the API answers (its fields are documented in the OpenAPI document). */
export const tagRecordSchema = z
  .object({
    id: z.uuid(),
    code: z.string().meta({ description: "Printed code, XXXXX-XXXXX", example: "7K3QX-M9P2T" }),
    encryptedId: z.string(),
    scanUrl: z.string(),
    status: tagStatusSchema,
    tagType: tagTypeSchema,
    itemName: z.string().nullable(),
    lostMessage: z.string().nullable(),
    visibility: visibilitySchema,
    scanCount: z.int(),
    lastScannedAt: z.iso.datetime().nullable(),
    activatedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "Tag" });

export type TagRecord = z.infer<typeof tagRecordSchema>;

const iso = (value: Date | null) => value?.toISOString() ?? null;

export function toTagRecord(tag: Tag): TagRecord {
  return {
    id: tag.id,
    code: formatTagCode(tag.code),
    encryptedId: tag.encryptedId,
    scanUrl: scanUrl(tag.encryptedId),
    status: tag.status,
    tagType: tag.tagType,
    itemName: tag.itemName,
    lostMessage: tag.lostMessage,
    visibility: tag.visibility,
    scanCount: tag.scanCount,
    lastScannedAt: iso(tag.lastScannedAt),
    activatedAt: iso(tag.activatedAt),
    createdAt: tag.createdAt.toISOString(),
    updatedAt: tag.updatedAt.toISOString(),
  };
}
