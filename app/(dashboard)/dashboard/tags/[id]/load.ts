import { notFound } from "next/navigation";
import { z } from "zod";
import { requireUserContext } from "@/lib/http/page-context";
import { NotFoundError } from "@/lib/services/errors";
import { getProfile } from "@/lib/services/profiles";
import { getTag } from "@/lib/services/tags";

/** The owner's tag, or the 404 page: another owner's tag and a malformed id read as missing. */
export async function loadOwnedTag(id: string, path: string) {
  const ctx = await requireUserContext(path);
  if (!z.uuid().safeParse(id).success) notFound();
  try {
    const [tag, profile] = await Promise.all([getTag(ctx, id), getProfile(ctx, id)]);
    return { ctx, tag, profile };
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
}

