import { eq } from "drizzle-orm";
import { schema } from "@/db/client";
import type { ServiceContext } from "@/lib/services/context";
import { NotFoundError, ValidationError } from "@/lib/services/errors";
import { normalizeTagCode } from "./codes";

/**
 * The scan address of the tag with this printed code, for a finder without a camera (/found): any case,
 * with or without the dash, look-alike letters decoded. Says nothing else about the tag; the finder page
 * decides what to show. A code that cannot be one is a validation error; an unknown one is not found.
 */
export async function findEncryptedIdByCode(ctx: ServiceContext, rawCode: string): Promise<string> {
  const code = normalizeTagCode(rawCode);
  if (!code) throw new ValidationError([{ field: "code", message: "A tag code has 10 letters and digits." }]);
  const [tag] = await ctx.db.select({ encryptedId: schema.tags.encryptedId }).from(schema.tags).where(eq(schema.tags.code, code)).limit(1);
  if (!tag) throw new NotFoundError();
  return tag.encryptedId;
}
