import { describe, expect, it } from "vitest";
import { getDatabase } from "@/db/client";
import { NotFoundError, ValidationError } from "@/lib/services/errors";
import { findEncryptedIdByCode } from "@/lib/services/tags";
import { mintTestTags } from "../support/tags";

const publicCtx = () => ({ actor: { kind: "public" as const, ip: "203.0.113.9" }, db: getDatabase().db });

describe("findEncryptedIdByCode (the /found page)", () => {
  it("finds the tag by its printed code in any case, with or without the dash, and with look-alike letters", async () => {
    const [tag] = await mintTestTags(1);
    const printed = tag!.code; // XXXXX-XXXXX
    const bare = printed.replace("-", "");
    for (const typed of [printed, bare, bare.toLowerCase(), ` ${printed.toLowerCase()} `, bare.replace(/0/g, "O").replace(/1/g, "I")]) {
      await expect(findEncryptedIdByCode(publicCtx(), typed), typed).resolves.toBe(tag!.encryptedId);
    }
  });

  it("refuses what cannot be a code, and says not found for a well-formed unknown one", async () => {
    await expect(findEncryptedIdByCode(publicCtx(), "nope")).rejects.toBeInstanceOf(ValidationError);
    await expect(findEncryptedIdByCode(publicCtx(), "ABCDE-FGHJK-M")).rejects.toBeInstanceOf(ValidationError);
    await expect(findEncryptedIdByCode(publicCtx(), "ß".repeat(10))).rejects.toBeInstanceOf(ValidationError);
    await expect(findEncryptedIdByCode(publicCtx(), "ZZZZZ-ZZZZZ")).rejects.toBeInstanceOf(NotFoundError);
  });
});
